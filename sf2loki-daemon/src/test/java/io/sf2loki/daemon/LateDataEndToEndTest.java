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
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data that Loki's time windows would reject, through the composed engine into the fake Loki
 * enforcing those windows: every row lands exactly once in Loki's eyes and checkpoints stay honest
 * (issue 14).
 */
class LateDataEndToEndTest {

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);

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

  private Engine engine(String extraHocon, Clock clock) {
    String hocon =
        """
        salesforce {
          auth_mode = client_credentials
          login_url = "%s"
          client_id = cid
          client_secret = secret
        }
        sink.loki { url = "%s", batch { flush_interval = 100ms, max_entries = 100, queue_maxsize = 200 } }
        state.file.path = "%s"
        service.shutdown_grace = %dms
        %s
        """
            .formatted(
                salesforce.baseUrl(),
                loki.baseUri(),
                dir.resolve("state.json"),
                TestTiming.seconds(5).toMillis(),
                extraHocon);
    Sf2LokiConfig config =
        Sf2LokiConfig.bind(
            new ConfigLoader(getClass().getClassLoader(), Map.of()).loadString(hocon),
            getClass().getClassLoader());
    return ConfiguredEngine.create(config, Environments.engine(clock, registry), Map.of());
  }

  private Engine elfEngine() {
    return engine(
        """
        sources.eventlogfile {
          enabled = true
          event_types = [Login]
          interval = Hourly
          poll_interval = 1s
          lookback = 24h
        }
        """,
        Clock.systemUTC());
  }

  /** A Hourly Login file for {@code logDate}, published {@code createdDate}. */
  private LogFileSpec file(
      String id, Instant logDate, Instant createdDate, int sequence, long rows, long seed) {
    LogFileSpec spec =
        new LogFileSpec(id, "Login", "Hourly", logDate, createdDate, sequence, rows, seed, false);
    salesforce.addLogFile(spec);
    return spec;
  }

  private List<String> expected(List<LogFileSpec> files) {
    List<String> lines = new ArrayList<>();
    for (LogFileSpec f : files) {
      LogFileCsv csv = salesforce.csv(f);
      for (long i = 0; i < f.rows(); i++) {
        lines.add(CanonicalJson.write(csv.expectedRow(i)));
      }
    }
    return lines;
  }

  private List<String> lines(String eventType) {
    return loki.entries().stream()
        .filter(e -> eventType.equals(e.labels().get("event_type")))
        .map(AcceptedEntry::line)
        .toList();
  }

  private void runUntil(Engine engine, java.util.concurrent.Callable<Boolean> done)
      throws Exception {
    StopTrigger stop = new StopTrigger();
    CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
    await().atMost(TestTiming.seconds(60)).until(done);
    stop.requestStop();
    assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
        .isInstanceOf(EngineOutcome.Stopped.class);
  }

  private double dropped() {
    return registry.find("sf2loki_loki_entries_dropped").counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  private double outOfWindow(String action) {
    return registry
        .find("sf2loki_loki_out_of_window_entries")
        .tag("action", action)
        .counters()
        .stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  /** 100 Login rows of the hour H-4, published at H-2:50. */
  private LogFileSpec newerHourFile() {
    return file(
        "0ATD00009000001AAA",
        hour.minus(4, ChronoUnit.HOURS),
        hour.minusSeconds(3 * 3600 - 600),
        1,
        100,
        1);
  }

  /** 150 late Login rows of the hour H-6 in a Sequence 2 file, published now (past the settle). */
  private LogFileSpec lateSequenceFile() {
    return file(
        "0ATD00009000002AAA",
        hour.minus(6, ChronoUnit.HOURS),
        Instant.now().minus(6, ChronoUnit.MINUTES), // past the 5 m settle window
        2,
        150,
        2);
  }

  private String checkpoint() throws Exception {
    return Files.readString(dir.resolve("state.json"));
  }

  @Test
  void aLateSequenceHourlyFileAfterANewerHourIsDeliveredExactlyOnce() throws Exception {
    LogFileSpec newer = newerHourFile();
    List<String> all = new ArrayList<>(expected(List.of(newer)));
    StopTrigger stop = new StopTrigger();
    try (Engine engine = elfEngine()) {
      CompletableFuture<EngineOutcome> run = runAsync(engine, stop);
      await().atMost(TestTiming.seconds(60)).until(() -> lines("Login").size() >= 100);
      LogFileSpec late = lateSequenceFile();
      all.addAll(expected(List.of(late)));
      await().atMost(TestTiming.seconds(60)).until(() -> lines("Login").size() >= 250);
      stop.requestStop();
      assertThat(run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(EngineOutcome.Stopped.class);
    }
    assertThat(lines("Login")).containsExactlyInAnyOrderElementsOf(all);
    assertThat(loki.entries().stream().filter(e -> "1".equals(e.labels().get("late"))))
        .hasSize(150);
    assertThat(loki.stats().rejected()).as("known before the push: nothing rejected").isZero();
    assertThat(dropped()).isZero();
    assertThat(outOfWindow("routed")).isEqualTo(150);
    assertThat(checkpoint()).contains("0ATD00009000002AAA");
  }

  @Test
  void aRestartBetweenTheNewerHourAndTheLateFileTurnsNoLateRowIntoALoss() throws Exception {
    LogFileSpec newer = newerHourFile();
    try (Engine engine = elfEngine()) {
      runUntil(engine, () -> lines("Login").size() >= 100);
    }
    LogFileSpec late = lateSequenceFile();
    try (Engine engine = elfEngine()) {
      runUntil(engine, () -> lines("Login").size() >= 250);
    }
    assertThat(lines("Login")).containsExactlyInAnyOrderElementsOf(expected(List.of(newer, late)));
    assertThat(loki.stats().rejected())
        .as("the restarted sink learned where the stream stands from Loki's first rejection")
        .isPositive();
    assertThat(dropped()).isZero();
    assertThat(checkpoint()).contains("0ATD00009000002AAA");
  }

  @Test
  void aBacklogAfterAnOutageLongerThanTheWindowArrivesExactlyOnce() throws Exception {
    List<LogFileSpec> files = new ArrayList<>();
    for (int h = 10; h >= 3; h--) { // eight hours of files published while sf2loki was down
      Instant logDate = hour.minus(h, ChronoUnit.HOURS);
      files.add(
          file(
              String.format("0ATD0000%07dAAA", 9000100 + h),
              logDate,
              logDate.plus(70, ChronoUnit.MINUTES),
              1,
              60,
              h));
    }
    // and a second file for an early hour, published after all the others
    files.add(
        file(
            "0ATD00009000200AAA",
            hour.minus(9, ChronoUnit.HOURS),
            hour.minus(100, ChronoUnit.MINUTES),
            2,
            80,
            99));
    try (Engine engine = elfEngine()) {
      runUntil(engine, () -> lines("Login").size() >= 8 * 60 + 80);
    }
    assertThat(lines("Login")).containsExactlyInAnyOrderElementsOf(expected(files));
    assertThat(dropped()).isZero();
    assertThat(outOfWindow("routed")).isEqualTo(80);
  }

  @Test
  void aSalesforceClockAheadOfTheHostByMoreThanTheGraceIsHeldBackNotDropped() throws Exception {
    loki.close();
    // This host (and the Loki it writes to) runs 45 s behind Salesforce; Loki's grace is 30 s.
    Clock host = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-45));
    loki =
        FakeLoki.start(
            0, LokiLimits.defaults().withCreationGracePeriod(Duration.ofSeconds(30)), host);
    salesforce.eventObjects().define("Skew_Event__c", "CreatedDate", false);
    Instant sfNow = Instant.now();
    for (int i = 0; i < 40; i++) {
      salesforce.eventObjects().add("Skew_Event__c", sfNow.minusSeconds(5).plusMillis(i * 10L));
    }
    String objects =
        """
        sources.eventlog_objects {
          enabled = true
          objects = [{name = Skew_Event__c, timestamp_field = CreatedDate, big_object = false}]
          poll_interval = 1s
          lookback = 1h
          settle_window = 0s
        }
        sink.loki { creation_grace_period = 28s, max_hold = 2m }
        """;
    try (Engine engine = engine(objects, host)) {
      runUntil(engine, () -> lines("Skew_Event__c").size() >= 40);
    }
    assertThat(lines("Skew_Event__c")).hasSize(40).doesNotHaveDuplicates();
    assertThat(loki.stats().rejected()).isZero();
    assertThat(dropped()).isZero();
    assertThat(outOfWindow("held")).isEqualTo(40);
    assertThat(
            registry
                .get("sf2loki_salesforce_clock_skew_seconds")
                .tag("source", "eventlog_objects")
                .gauge()
                .value())
        .isBetween(40.0, 50.0);
    assertThat(loki.entries())
        .allSatisfy(
            e -> assertThat(Objects.requireNonNull(e.metadata())).doesNotContainKey("event_time"));
  }
}
