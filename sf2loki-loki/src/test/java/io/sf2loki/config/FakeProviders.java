package io.sf2loki.config;

import io.sf2loki.loki.LokiSinkProvider;
import io.sf2loki.registry.ProviderRegistry;
import io.sf2loki.registry.Providers;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.LeaseInspector;
import io.sf2loki.spi.SinkProvider;
import io.sf2loki.spi.SourceProvider;
import io.sf2loki.spi.StoreEnvironment;
import java.util.List;
import java.util.Optional;

/**
 * Providers named like the real store and coordinator (which these binding tests cannot see), and
 * the real Loki sink provider.
 */
final class FakeProviders {

  private FakeProviders() {}

  static Providers standard() {
    return new Providers(
        new ProviderRegistry<>("checkpoint store", List.of(new NamedStore("file"))),
        new ProviderRegistry<>("coordinator", List.of(new NamedCoordinator("noop"))),
        new ProviderRegistry<SourceProvider>("source", List.of()),
        new ProviderRegistry<SinkProvider>("sink", List.of(new LokiSinkProvider())));
  }

  private record NamedStore(String type) implements CheckpointStoreProvider {
    @Override
    public Factory configure(ConfigSection section) {
      return new Factory() {
        @Override
        public String location() {
          return type;
        }

        @Override
        public CheckpointStore create(StoreEnvironment environment) {
          throw new AssertionError("binding tests never create stores");
        }
      };
    }
  }

  private record NamedCoordinator(String type) implements CoordinatorProvider {
    @Override
    public Factory configure(ConfigSection section) {
      return new Factory() {
        @Override
        public Coordinator create(CoordinatorEnvironment environment) {
          throw new AssertionError("binding tests never create coordinators");
        }

        @Override
        public Optional<LeaseInspector> inspector(
            java.time.Clock clock, java.util.Map<String, String> variables) {
          return Optional.empty();
        }
      };
    }
  }
}
