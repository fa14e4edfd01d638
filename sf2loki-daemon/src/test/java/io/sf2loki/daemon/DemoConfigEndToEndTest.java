package io.sf2loki.daemon;

import static io.sf2loki.daemon.EngineRuns.runAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.Environments;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.sim.Simulator;
import io.sf2loki.testkit.sim.SimulatorOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/demo.conf} against the simulator, as {@code just demo} runs them (ephemeral ports
 * instead of the demo's fixed ones, through the {@code SF2LOKI_} overrides).
 */
class DemoConfigEndToEndTest {

  private static final Path DEMO = Path.of("..", "examples", "demo.conf");

  @TempDir Path dir;

  @Test
  void theDemoShipsPubSubEventsAlongsideThePolledSourcesAndCommitsTheirReplayIds()
      throws Exception {
    SimulatorOptions options =
        SimulatorOptions.parse(
            List.of(
                "--salesforce-port",
                "0",
                "--loki-port",
                "0",
                "--pubsub-port",
                "0",
                "--period",
                "1s",
                "--pubsub-period",
                "50ms"));
    try (Simulator sim = Simulator.start(options)) {
      Map<String, String> env =
          Map.of(
              "DEMO_DIR", dir.toString(),
              "SF2LOKI_SALESFORCE__LOGIN_URL", sim.salesforce().baseUrl().toString(),
              "SF2LOKI_SINK__LOKI__URL", sim.loki().baseUri().toString(),
              "SF2LOKI_SOURCES__PUBSUB__ENDPOINT", sim.pubsub().target());
      Sf2LokiConfig config =
          Sf2LokiConfig.bind(
              new ConfigLoader(getClass().getClassLoader(), env).load(Optional.of(DEMO)),
              getClass().getClassLoader());
      StopTrigger stop = new StopTrigger();
      try (Engine engine =
          ConfiguredEngine.create(
              config, Environments.engine(new SimpleMeterRegistry()), Map.of())) {
        CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
        await()
            .atMost(TestTiming.seconds(60))
            .until(
                () ->
                    sourcesIn(sim).containsAll(Set.of("eventlogfile", "eventlog_objects"))
                        && pubsubTypesIn(sim)
                            .containsAll(
                                Set.of(
                                    "LoginEventStream", "Order_Shipped__e", "AccountChangeEvent"))
                        && sim.loki().lines().stream()
                            .anyMatch(l -> l.contains("\"changedFields\": [\"Phone\"")));
        stop.requestStop();
        assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
            .isInstanceOf(EngineOutcome.Stopped.class);
      }
    }
    assertThat(Files.readString(dir.resolve("state.json")))
        .contains(
            "\"pubsub:/event/LoginEventStream\"",
            "\"pubsub:/event/Order_Shipped__e\"",
            "\"pubsub:/data/AccountChangeEvent\"");
  }

  private static Set<String> sourcesIn(Simulator sim) {
    return sim.loki().entries().stream()
        .map(e -> e.labels().get("source"))
        .collect(Collectors.toSet());
  }

  private static Set<String> pubsubTypesIn(Simulator sim) {
    return sim.loki().entries().stream()
        .filter(e -> "pubsub".equals(e.labels().get("source")))
        .map(AcceptedEntry::labels)
        .map(l -> l.get("event_type"))
        .collect(Collectors.toSet());
  }
}
