package io.sf2loki.coordinate.filelease;

import io.sf2loki.coordinate.internal.HolderIds;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.LeaseInspector;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Provides the {@code file_lease} coordinator. */
public final class FileLeaseCoordinatorProvider implements CoordinatorProvider {

  @Override
  public String type() {
    return FileLeaseInspector.TYPE;
  }

  @Override
  public Factory configure(ConfigSection section) {
    FileLeaseConfig config = FileLeaseConfig.bind(section);
    return new Factory() {
      @Override
      public Optional<Duration> leaseDuration() {
        return Optional.of(config.ttl());
      }

      @Override
      public Optional<Path> leaseFile() {
        return Optional.of(config.path());
      }

      @Override
      public Coordinator create(CoordinatorEnvironment environment) {
        String holder =
            config
                .holderId()
                .orElseGet(
                    () -> HolderIds.hostPidRandom(environment.variables(), new SecureRandom()));
        return new FileLeaseCoordinator(
            new FileLeaseFile(config.path(), config.mode()),
            holder,
            config,
            environment,
            Sleeper.REAL);
      }

      @Override
      public Optional<LeaseInspector> inspector(Clock clock, Map<String, String> variables) {
        return Optional.of(new FileLeaseInspector(config.path(), clock));
      }
    };
  }
}
