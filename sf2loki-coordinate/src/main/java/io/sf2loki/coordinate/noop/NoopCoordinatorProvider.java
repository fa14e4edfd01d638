package io.sf2loki.coordinate.noop;

import io.sf2loki.coordinate.internal.HolderIds;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.LeaseInspector;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/** Provides the {@code noop} coordinator; it has no configuration keys and no lease to inspect. */
public final class NoopCoordinatorProvider implements CoordinatorProvider {

  @Override
  public String type() {
    return "noop";
  }

  @Override
  public Factory configure(ConfigSection section) {
    return new Factory() {
      @Override
      public Coordinator create(CoordinatorEnvironment environment) {
        return new NoopCoordinator(HolderIds.podName(environment.variables()));
      }

      @Override
      public Optional<LeaseInspector> inspector(Clock clock, Map<String, String> variables) {
        return Optional.empty();
      }
    };
  }
}
