package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.Environments;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.SinkEnvironment;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.StoreEnvironment;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sink of a library user's, found by {@code sink.type} like every other component. */
class CustomSinkTest {

  @TempDir Path dir;

  private Sf2LokiConfig bind(String sinkType) {
    String hocon =
        """
        salesforce { auth_mode = client_credentials, login_url = "https://acme.my.salesforce.com",
                     client_id = cid, client_secret = secret }
        sink.type = %s
        state.file.path = "%s"
        """
            .formatted(sinkType, dir.resolve("state.json"));
    return Sf2LokiConfig.bind(
        new ConfigLoader(getClass().getClassLoader(), Map.of()).loadString(hocon),
        getClass().getClassLoader());
  }

  @Test
  void theSinkNamedBySinkTypeReceivesTheEntriesWithItsLabelsStamped() throws Exception {
    Sf2LokiConfig config = bind("memory");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CheckpointStore store =
        config.store().create(new StoreEnvironment(true, Clock.systemUTC(), registry));
    Sink sink =
        config.sink().create(new SinkEnvironment(Clock.systemUTC(), registry, new Random(7)));
    MemorySinkProvider.RECEIVED.clear();
    try (Engine engine =
        Engine.builder(
                () -> new io.sf2loki.coordinate.noop.NoopCoordinator("custom-sink-test"),
                store,
                sink,
                () -> List.of(new CountingSource(25, Duration.ZERO)),
                Environments.engine(registry))
            .staticLabels(ConfiguredEngine.deploymentLabels(config))
            .build()) {
      assertThat(engine.run(new StopTrigger())).isInstanceOf(EngineOutcome.Finished.class);
    }
    assertThat(config.sinkType()).isEqualTo("memory");
    assertThat(MemorySinkProvider.RECEIVED)
        .hasSize(25)
        .allSatisfy(e -> assertThat(e.labels()).containsEntry("environment", "memory"));
  }

  @Test
  void anUnknownSinkTypeNamesTheKnownOnes() {
    Assertions.assertThatThrownBy(() -> bind("kafka"))
        .isInstanceOf(ConfigInvalidException.class)
        .hasMessageContaining("sink.type")
        .hasMessageContaining("loki")
        .hasMessageContaining("memory");
  }
}
