package io.sf2loki.state.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.registry.ProviderRegistry;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.testkit.gcs.FakeGcsServer;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code gcs} provider: discovery, validation, and a store built from configuration. */
class GcsCheckpointStoreProviderTest {

  private static ConfigReader state(String hocon) {
    ConfigLoader loader =
        new ConfigLoader(GcsCheckpointStoreProviderTest.class.getClassLoader(), Map.of());
    return loader.loadString(hocon).reader().section("state");
  }

  @Test
  void isDiscoveredByTypeGcs() {
    assertThat(ProviderRegistry.stores(getClass().getClassLoader()).types())
        .contains("file", "s3", "gcs");
  }

  @Test
  void everyProblemIsReportedWithItsKeyPath() {
    ConfigReader r = state("state.gcs { bucket = \"\", object_name = \"\", max_attempts = 11 }");
    GcsStoreConfig.bind(r.section("gcs"));
    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .anySatisfy(m -> assertThat(m).startsWith("state.gcs.bucket is required"))
        .anySatisfy(m -> assertThat(m).startsWith("state.gcs.object_name"))
        .anySatisfy(m -> assertThat(m).startsWith("state.gcs.max_attempts"));
  }

  @Test
  void storeBuiltFromConfigurationWorksAgainstAnEmulatorEndpoint() throws Exception {
    try (FakeGcsServer server = FakeGcsServer.start()) {
      ConfigReader r =
          state(
              "state.gcs { bucket = acme-state, object_name = \"cfg/state.json\", endpoint_url = \""
                  + server.endpoint()
                  + "\" }");
      CheckpointStoreProvider.Factory factory =
          new GcsCheckpointStoreProvider().configure(r.section("gcs"));
      assertThat(r.problems()).isEmpty();
      assertThat(factory.location()).isEqualTo("gs://acme-state/cfg/state.json");
      StoreEnvironment env =
          new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry());
      try (CheckpointStore store = factory.create(env)) {
        store.commit(Map.of("k", "v"), Fence.NONE);
        assertThat(store.load("k")).contains("v");
      }
      assertThat(server.object("acme-state", "cfg/state.json")).isPresent();
    }
  }
}
