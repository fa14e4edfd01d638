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
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An EventLogFile drain saturating the bulk lane does not delay Pub/Sub entries: they travel on the
 * streaming lane's own queue and push, so they reach Loki before the bulk entries that were already
 * queued when they were published. Every push is slowed down alike, which stretches the drain to
 * many times the streaming lane's path without favouring either lane.
 */
class StreamingLaneUnderBulkDrainTest {

  private static final int FILES = 3;
  private static final int ROWS = 10_000;
  private static final int BATCH = 1_000;
  private static final int EVENTS = 20;

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakePubSub pubsub;
  private FakeLoki loki;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    pubsub = FakePubSub.builder().tokens(salesforce::isValidToken).standardTopics().start();
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
    pubsub.close();
    salesforce.close();
  }

  private Engine engine() {
    String hocon =
        """
        salesforce { auth_mode = client_credentials, login_url = "%s"
                     client_id = cid, client_secret = secret }
        sources.eventlogfile { enabled = true, event_types = [API], interval = Hourly
                               poll_interval = 1s, lookback = 12h }
        sources.pubsub { enabled = true, endpoint = "%s", plaintext = true
                         topics = ["%s"], replay_preset = EARLIEST }
        sink.loki { url = "%s", batch { flush_interval = 200ms, max_entries = %d } }
        state.file.path = "%s"
        service.shutdown_grace = 1s
        """
            .formatted(
                salesforce.baseUrl(),
                pubsub.target(),
                FakePubSub.LOGIN,
                loki.baseUri(),
                BATCH,
                dir.resolve("state.json"));
    Sf2LokiConfig config =
        Sf2LokiConfig.bind(
            new ConfigLoader(getClass().getClassLoader(), Map.of()).loadString(hocon),
            getClass().getClassLoader());
    return ConfiguredEngine.create(config, Environments.engine(registry), Map.of());
  }

  private double bulkQueued() {
    var gauge = registry.find("sf2loki_lane_queue_entries").tag("lane", "bulk").gauge();
    return gauge == null ? 0 : gauge.value();
  }

  private List<AcceptedEntry> ofType(String eventType) {
    return loki.entries().stream()
        .filter(e -> eventType.equals(e.labels().get("event_type")))
        .toList();
  }

  @Test
  void pubSubEntriesOvertakeTheBulkEntriesQueuedBeforeThem() throws Exception {
    Instant hour = Instant.now().minus(6, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
    for (int i = 0; i < FILES; i++) {
      Instant logDate = hour.plus(i, ChronoUnit.HOURS);
      salesforce.addLogFile("API", "Hourly", logDate, logDate.plus(70, ChronoUnit.MINUTES), ROWS);
    }
    // Every push takes 300 ms more: the drain needs FILES * ROWS / BATCH pushes, one at a time.
    loki.addFault(Fault.latency(Duration.ofMillis(300), 1_000_000));
    StopTrigger stop = new StopTrigger();
    try (Engine engine = engine()) {
      CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
      await("the Pub/Sub stream is open and the bulk lane holds several batches")
          .atMost(TestTiming.seconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> pubsub.liveStreams() == 1 && bulkQueued() >= 8 * BATCH);

      int bulkStored = ofType("API").size();
      double queuedBefore = bulkQueued();
      for (int i = 0; i < EVENTS; i++) {
        pubsub.publish(
            FakePubSub.LOGIN,
            Map.of("EventIdentifier", "ev-" + i, "EventDate", System.currentTimeMillis()));
      }
      await("every Pub/Sub event is in Loki")
          .atMost(TestTiming.seconds(30))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> ofType("LoginEventStream").size() == EVENTS);
      int bulkOvertaken = ofType("API").size() - bulkStored;
      System.out.printf(
          "Pub/Sub events in Loki after %d bulk rows; %.0f were queued when they were published%n",
          bulkOvertaken, queuedBefore);
      assertThat(bulkOvertaken)
          .as("bulk rows stored between the publish and the last Pub/Sub entry")
          .isLessThan((int) queuedBefore);
      assertThat(ofType("API")).as("the drain is still running").hasSizeLessThan(FILES * ROWS);

      stop.requestStop();
      assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(EngineOutcome.Stopped.class);
    }
  }
}
