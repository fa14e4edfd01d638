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
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** EventLogFile source → pipeline → Loki sink → fake Loki, composed from config like the daemon. */
class EventLogFileEndToEndTest {

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
    salesforce.close();
  }

  private Engine engine() {
    return engine("[Login, API]");
  }

  private Engine engine(String eventTypes) {
    String hocon =
        """
        salesforce {
          auth_mode = client_credentials
          login_url = "%s"
          client_id = cid
          client_secret = secret
        }
        sources.eventlogfile {
          enabled = true
          event_types = %s
          interval = Hourly
          poll_interval = 1s
          lookback = 12h
        }
        sink.loki { url = "%s", batch { flush_interval = 100ms, max_entries = 100, queue_maxsize = 200 } }
        state.file.path = "%s"
        service.shutdown_grace = %dms
        """
            .formatted(
                salesforce.baseUrl(),
                eventTypes,
                loki.baseUri(),
                dir.resolve("state.json"),
                TestTiming.seconds(5).toMillis());
    Sf2LokiConfig config =
        Sf2LokiConfig.bind(
            new ConfigLoader(getClass().getClassLoader(), Map.of()).loadString(hocon),
            getClass().getClassLoader());
    return ConfiguredEngine.create(
        config, Environments.engine(new SimpleMeterRegistry()), Map.of());
  }

  private List<LogFileSpec> addFiles(String type, int count, long rows, Instant hour) {
    List<LogFileSpec> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Instant logDate = hour.plus(i, ChronoUnit.HOURS);
      files.add(
          salesforce.addLogFile(
              type, "Hourly", logDate, logDate.plus(70, ChronoUnit.MINUTES), rows));
    }
    return files;
  }

  private List<String> expectedLines(List<LogFileSpec> files) {
    List<String> lines = new ArrayList<>();
    for (LogFileSpec f : files) {
      LogFileCsv csv = salesforce.csv(f);
      for (long i = 0; i < f.rows(); i++) {
        lines.add(CanonicalJson.write(csv.expectedRow(i)));
      }
    }
    return lines;
  }

  @Test
  void everyRowOfEveryFileArrivesWithItsExactContentInOrderPerType() throws Exception {
    Instant hour = Instant.now().minus(6, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
    List<LogFileSpec> logins = addFiles("Login", 3, 120, hour);
    List<LogFileSpec> api = addFiles("API", 2, 90, hour);
    List<String> expectedLogin = expectedLines(logins);
    List<String> expectedApi = expectedLines(api);
    StopTrigger stop = new StopTrigger();
    try (Engine engine = engine()) {
      CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
      await()
          .atMost(TestTiming.seconds(60))
          .until(() -> loki.lines().size() >= expectedLogin.size() + expectedApi.size());
      stop.requestStop();
      assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(EngineOutcome.Stopped.class);
    }
    assertThat(linesOf("Login")).containsExactlyElementsOf(expectedLogin);
    assertThat(linesOf("API")).containsExactlyElementsOf(expectedApi);
  }

  @Test
  void restartMidDrainLosesNothingAndRepeatsAtMostTheInterruptedFile() throws Exception {
    Instant hour = Instant.now().minus(8, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
    List<LogFileSpec> logins = addFiles("Login", 6, 400, hour);
    List<String> expected = expectedLines(logins);
    StopTrigger first = new StopTrigger();
    // Slow pushes and a small lane keep the source blocked mid-drain, so the stop below always
    // interrupts it (an unthrottled drain can finish before the stop lands on a loaded machine).
    loki.addFault(Fault.latency(Duration.ofMillis(100), 1_000));
    try (Engine engine = engine()) {
      CompletableFuture<EngineOutcome> run = runAsync(engine, first);
      await().atMost(TestTiming.seconds(60)).until(() -> loki.lines().size() >= 700);
      first.requestStop();
      run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    }
    loki.clearFaults();
    assertThat(loki.lines().size()).isLessThan(expected.size());
    StopTrigger second = new StopTrigger();
    try (Engine engine = engine()) {
      CompletableFuture<EngineOutcome> run = runAsync(engine, second);
      await().atMost(TestTiming.seconds(60)).until(() -> linesOf("Login").containsAll(expected));
      second.requestStop();
      run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    }
    Map<String, Integer> seen = new HashMap<>();
    linesOf("Login").forEach(l -> seen.merge(l, 1, Integer::sum));
    long duplicated = seen.values().stream().filter(n -> n > 1).count();
    assertThat(duplicated)
        .as("rows sent twice: at most one interrupted file")
        .isLessThanOrEqualTo(400);
    assertThat(seen.keySet()).containsAll(expected);
  }

  @Test
  void aPromotedFieldIsAStreamLabelOfTheEntriesInLoki() throws Exception {
    Instant hour = Instant.now().minus(4, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
    List<LogFileSpec> logins = addFiles("Login", 1, 30, hour);
    StopTrigger stop = new StopTrigger();
    try (Engine engine = engine("[{ name = Login, labels = [REQUEST_STATUS] }]")) {
      CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
      await().atMost(TestTiming.seconds(60)).until(() -> loki.lines().size() >= 30);
      stop.requestStop();
      run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    }
    LogFileCsv csv = salesforce.csv(logins.get(0));
    assertThat(loki.entries())
        .hasSize(30)
        .allSatisfy(
            e -> {
              assertThat(e.labels()).containsKey("REQUEST_STATUS");
              assertThat(e.metadata()).doesNotContainKey("REQUEST_STATUS");
            });
    assertThat(loki.entries().stream().map(e -> e.labels().get("REQUEST_STATUS")).distinct())
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.LongStream.range(0, 30)
                .mapToObj(i -> String.valueOf(csv.expectedRow(i).get("REQUEST_STATUS")))
                .distinct()
                .toList());
  }

  private List<String> linesOf(String eventType) {
    return loki.entries().stream()
        .filter(e -> eventType.equals(e.labels().get("event_type")))
        .map(e -> e.line())
        .toList();
  }
}
