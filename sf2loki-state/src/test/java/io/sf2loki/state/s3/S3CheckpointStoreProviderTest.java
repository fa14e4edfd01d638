package io.sf2loki.state.s3;

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
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code s3} provider: discovery, validation, and a store built from configuration. */
class S3CheckpointStoreProviderTest {

  private static ConfigReader state(String hocon) {
    ConfigLoader loader =
        new ConfigLoader(S3CheckpointStoreProviderTest.class.getClassLoader(), Map.of());
    return loader.loadString(hocon).reader().section("state");
  }

  @Test
  void isDiscoveredByTypeS3() {
    assertThat(ProviderRegistry.stores(getClass().getClassLoader()).types()).contains("s3");
  }

  @Test
  void everyProblemIsReportedWithItsKeyPath() {
    ConfigReader r =
        state(
            "state.s3 { bucket = \"\", key = \"/abs\", endpoint_url = \"ftp://x\","
                + " access_key_id = \"AKIA\", max_attempts = 0 }");
    S3StoreConfig.bind(r.section("s3"));
    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .anySatisfy(m -> assertThat(m).startsWith("state.s3.bucket is required"))
        .anySatisfy(m -> assertThat(m).startsWith("state.s3.key"))
        .anySatisfy(m -> assertThat(m).startsWith("state.s3.endpoint_url"))
        .anySatisfy(m -> assertThat(m).startsWith("state.s3.access_key_id"))
        .anySatisfy(m -> assertThat(m).startsWith("state.s3.max_attempts"));
  }

  @Test
  void pathStyleDefaultsToOnExactlyWhenAnEndpointIsSet() {
    ConfigReader aws = state("state.s3.bucket = acme-state");
    assertThat(S3StoreConfig.bind(aws.section("s3")).pathStyle()).isFalse();
    ConfigReader minio =
        state("state.s3 { bucket = acme-state, endpoint_url = \"http://minio:9000\" }");
    assertThat(S3StoreConfig.bind(minio.section("s3")).pathStyle()).isTrue();
    assertThat(aws.problems()).isEmpty();
    assertThat(minio.problems()).isEmpty();
  }

  @Test
  void storeBuiltFromConfigurationWorksAgainstAnS3CompatibleEndpoint() throws Exception {
    S3Fixture s3 = new S3Fixture();
    try {
      ConfigReader r =
          state(
              "state.s3 { bucket = "
                  + S3Fixture.BUCKET
                  + ", key = \"cfg/state.json\", endpoint_url = \""
                  + s3.endpoint()
                  + "\", access_key_id = "
                  + S3Fixture.ID
                  + ", secret_access_key = "
                  + S3Fixture.SECRET
                  + " }");
      CheckpointStoreProvider.Factory factory =
          new S3CheckpointStoreProvider().configure(r.section("s3"));
      assertThat(r.problems()).isEmpty();
      assertThat(factory.location()).isEqualTo("s3://" + S3Fixture.BUCKET + "/cfg/state.json");
      StoreEnvironment env =
          new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry());
      try (CheckpointStore store = factory.create(env)) {
        store.commit(Map.of("k", "v"), Fence.NONE);
        assertThat(store.load("k")).contains("v");
      }
    } finally {
      s3.stop();
    }
  }
}
