package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.EventLogObjects;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event Log Objects through the composed daemon into the fake Loki: every row once with its
 * documented labels and metadata, the checkpoint committed, and the switch-over of {@code Login}
 * from EventLogFile to {@code LoginEventLog} neither losing nor repeating an event.
 */
class EventLogObjectsEndToEndTest {

  private static final String LOGIN_ELO = "LoginEventLog";

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;
  private Instant hour;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    loki = FakeLoki.start();
    hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    salesforce.eventLogObjects().define(LOGIN_ELO, "LoginType");
  }

  @AfterEach
  void stop() {
    loki.close();
    salesforce.close();
  }

  private String config(String sources) {
    return """
        salesforce { auth_mode = client_credentials, login_url = "%s"
                     client_id = cid, client_secret = secret }
        %s
        sink.loki { url = "%s", batch { flush_interval = 100ms } }
        state.file.path = "%s"
        service.shutdown_grace = 1s
        """
        .formatted(salesforce.baseUrl(), sources, loki.baseUri(), dir.resolve("state.json"));
  }

  private static final String ELO_SOURCE =
      """
      sources.eventlog_objects { enabled = true
        objects = [{name = LoginEventLog, poll_interval = 1s, lookback = 12h}] }
      """;

  private static final String ELF_SOURCE =
      """
      sources.eventlogfile { enabled = true, event_types = [Login], interval = Hourly
                             poll_interval = 1s, lookback = 12h }
      """;

  @Test
  void everyRowOfAnEventLogObjectLandsOnceWithItsLabelsAndItsCheckpointIsCommitted()
      throws Exception {
    EventLogObjects elo = salesforce.eventLogObjects();
    List<EventLogObjects.Row> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Instant at = hour.minus(4, ChronoUnit.HOURS).plusSeconds(30L * i);
      rows.add(elo.add(LOGIN_ELO, at, at.plusSeconds(60), Map.of()));
    }
    Instant tie = hour.minus(3, ChronoUnit.HOURS).plusMillis(7);
    for (int i = 0; i < 2_500; i++) { // more than one 2000-row page on one millisecond
      rows.add(elo.add(LOGIN_ELO, tie, tie.plusSeconds(60), Map.of()));
    }

    runUntil(
        ELO_SOURCE,
        "every row is in Loki and its position committed",
        () -> entries().size() >= rows.size() && state().contains(LOGIN_ELO));
    // a row after the committed position (now − 50m), settled for a restart whose settle is 45m
    Instant fresh = Instant.now().minus(47, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
    rows.add(elo.add(LOGIN_ELO, fresh, fresh, Map.of()));
    runUntil(
        ELO_SOURCE.replace("lookback = 12h", "lookback = 12h, settle_window = 45m"),
        "the restart ships the new row",
        () -> entries().size() >= rows.size());

    assertThat(requestIds(entries()))
        .containsExactlyInAnyOrderElementsOf(
            rows.stream().map(r -> (String) r.fields().get("RequestIdentifier")).toList());
    AcceptedEntry first = byRequestId().get(rows.get(0).fields().get("RequestIdentifier"));
    assertThat(first.labels())
        .containsEntry("source", "eventlog_objects")
        .containsEntry("event_type", LOGIN_ELO);
    assertThat(first.timestampNanos())
        .isEqualTo(rows.get(0).timestamp().toEpochMilli() * 1_000_000L);
    assertThat(first.line()).contains("\"LoginType\": ").doesNotContain("attributes");
    assertThat(state()).contains("eventlog_objects:" + LOGIN_ELO);
    assertThat(salesforce.eventLogObjects().refusals()).isZero();
  }

  @Test
  void switchingLoginFromEventLogFileToLoginEventLogShipsEveryEventExactlyOnce() throws Exception {
    List<LogFileSpec> before = new ArrayList<>();
    for (int h = 8; h >= 6; h--) {
      before.add(loginFile(h));
    }
    runUntil(
        ELF_SOURCE,
        "EventLogFile shipped the first three hours and committed them",
        () ->
            entries().size() >= 3 * 40
                && state().contains("covered_until")
                && state().contains(literal(hour.minus(5, ChronoUnit.HOURS))));
    List<LogFileSpec> after = new ArrayList<>();
    for (int h = 5; h >= 3; h--) {
      after.add(loginFile(h)); // the hours EventLogFile never read: Login moved to LoginEventLog
    }

    runUntil(
        ELO_SOURCE,
        "LoginEventLog shipped the later hours and committed them",
        () -> entries().size() >= 6 * 40 && state().contains(LOGIN_ELO));

    Set<String> elfIds = requestIdsOf(before);
    Set<String> eloIds = requestIdsOf(after);
    assertThat(requestIds(entries()))
        .as("every event of the six hours, each once")
        .hasSize(6 * 40)
        .containsExactlyInAnyOrderElementsOf(union(elfIds, eloIds));
    assertThat(
            entries().stream()
                .filter(e -> "eventlog_objects".equals(e.labels().get("source")))
                .map(e -> e.metadata().get("request_id"))
                .collect(Collectors.toSet()))
        .as("LoginEventLog shipped exactly the hours after EventLogFile's files")
        .isEqualTo(eloIds);
    assertThat(salesforce.eventLogObjects().refusals()).isZero();
  }

  /**
   * 40 Login events of the hour {@code hoursAgo} before the current one: an Hourly EventLogFile
   * file published two hours after its hour, and the same events (same request ids and times) as
   * rows of {@code LoginEventLog}.
   */
  private LogFileSpec loginFile(int hoursAgo) {
    Instant logDate = hour.minus(hoursAgo, ChronoUnit.HOURS);
    LogFileSpec file =
        salesforce.addLogFile("Login", "Hourly", logDate, logDate.plusSeconds(2 * 3600), 40);
    LogFileCsv csv = salesforce.csv(file);
    for (int i = 0; i < file.rows(); i++) {
      Instant at = csv.rowTime(i);
      salesforce
          .eventLogObjects()
          .add(
              LOGIN_ELO, at, at, Map.of("RequestIdentifier", csv.expectedRow(i).get("REQUEST_ID")));
    }
    return file;
  }

  /** Runs the daemon on {@code sources} until {@code done}, then stops it. */
  private void runUntil(String sources, String what, Callable<Boolean> done) throws Exception {
    ComposedRun run = ComposedRun.start(config(sources));
    try {
      await(what).atMost(TestTiming.seconds(60)).until(done);
    } finally {
      run.close();
    }
  }

  private Set<String> requestIdsOf(List<LogFileSpec> files) {
    Set<String> out = new TreeSet<>();
    for (LogFileSpec f : files) {
      LogFileCsv csv = salesforce.csv(f);
      for (int i = 0; i < f.rows(); i++) {
        out.add(csv.expectedRow(i).get("REQUEST_ID"));
      }
    }
    return out;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.addAll(b);
    return out;
  }

  private List<AcceptedEntry> entries() {
    return loki.entries().stream().filter(e -> e.metadata().containsKey("request_id")).toList();
  }

  /** The request ids of {@code entries}, one element per entry (so a repeat shows). */
  private static List<String> requestIds(List<AcceptedEntry> entries) {
    return entries.stream().map(e -> e.metadata().get("request_id")).toList();
  }

  private Map<String, AcceptedEntry> byRequestId() {
    return entries().stream()
        .collect(Collectors.toMap(e -> e.metadata().get("request_id"), Function.identity()));
  }

  /** How sf2loki stores an instant in a checkpoint: {@code 2026-06-30T10:00:00.000Z}. */
  private static String literal(Instant t) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX")
        .withZone(ZoneOffset.UTC)
        .format(t);
  }

  private String state() throws Exception {
    Path file = dir.resolve("state.json");
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
