package io.sf2loki.source.eventlogobjects;

import static io.sf2loki.salesforce.testing.RecordingSourceContext.afterWaits;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.testing.RecordingSourceContext;
import io.sf2loki.testkit.salesforce.EventObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** sources.eventlog_objects.start/until: a bounded, finite read of a past window. */
class ObjectWindowIT {

  private static final Instant T = ObjectsHarness.START.minus(Duration.ofHours(6));
  private static final String START = T.toString();
  private static final String UNTIL = T.plus(Duration.ofHours(2)).toString();

  final ObjectsHarness h = new ObjectsHarness();
  final EventObjects objects = h.sf.eventObjects();

  @AfterEach
  void close() throws Exception {
    h.close();
  }

  private String bounded(String object, String until) {
    return "objects = [{name = "
        + object
        + "}], poll_interval = 1m, start = \""
        + START
        + "\""
        + (until.isEmpty() ? "" : ", until = \"" + until + "\"");
  }

  @Test
  void onlyRowsFromStartUntilBeforeUntilAreReadAndTheSourceFinishesWithoutWaiting()
      throws Exception {
    objects.define("SetupAuditTrail", "CreatedDate", false);
    objects.add("SetupAuditTrail", T.minusSeconds(1));
    String atStart = objects.add("SetupAuditTrail", T);
    String inside = objects.add("SetupAuditTrail", T.plus(Duration.ofMinutes(90)));
    objects.add("SetupAuditTrail", T.plus(Duration.ofHours(2)));

    RecordingSourceContext ctx = h.run(bounded("SetupAuditTrail", UNTIL), afterWaits(5));

    assertThat(ObjectsHarness.ids(ctx.lines())).containsExactly(atStart, inside);
    assertThat(ctx.waits()).as("finished after one poll").isZero();
  }

  @Test
  void aBigObjectDrainStopsBelowUntilToo() throws Exception {
    objects.define("LoginEvent", "EventDate", true);
    String inside = objects.add("LoginEvent", T.plus(Duration.ofMinutes(1)));
    objects.add("LoginEvent", T.plus(Duration.ofHours(3)));

    RecordingSourceContext ctx = h.run(bounded("LoginEvent", UNTIL), afterWaits(5));

    assertThat(ObjectsHarness.ids(ctx.lines())).containsExactly(inside);
    assertThat(ctx.waits()).isZero();
  }

  @Test
  void anUntilInsideTheSettleWindowKeepsPollingUntilItHasSettled() throws Exception {
    objects.define("LoginHistory", "LoginTime", false);
    Instant until = ObjectsHarness.START.minus(Duration.ofMinutes(2));
    String early = objects.add("LoginHistory", until.minus(Duration.ofMinutes(10)));
    String settling = objects.add("LoginHistory", until.minus(Duration.ofMinutes(1)));

    RecordingSourceContext ctx =
        h.run(bounded("LoginHistory", until.toString()) + ", settle_window = 5m", afterWaits(10));

    assertThat(ObjectsHarness.ids(ctx.lines())).containsExactly(early, settling);
    assertThat(ctx.waits()).as("polled each minute until now - 5m passed until").isEqualTo(3);
  }

  @Test
  void anUnboundedSourceKeepsPolling() throws Exception {
    objects.define("SetupAuditTrail", "CreatedDate", false);
    objects.add("SetupAuditTrail", T.plusSeconds(5));

    RecordingSourceContext ctx = h.run(bounded("SetupAuditTrail", ""), afterWaits(3));

    assertThat(ctx.lines()).hasSize(1);
    assertThat(ctx.waits()).isEqualTo(3);
  }

  @Test
  void aStoredCursorBehindStartMovesUpToIt() throws Exception {
    objects.define("SetupAuditTrail", "CreatedDate", false);
    objects.add("SetupAuditTrail", T.minus(Duration.ofMinutes(30)));
    String inside = objects.add("SetupAuditTrail", T.plusSeconds(1));
    h.checkpoints =
        new java.util.HashMap<>(
            Map.of(
                "eventlog_objects:SetupAuditTrail",
                "{\"ids\": [], \"last_ts\": \"2026-06-29T00:00:00.000+0000\"}"));

    RecordingSourceContext ctx = h.run(bounded("SetupAuditTrail", UNTIL), afterWaits(5));

    assertThat(ObjectsHarness.ids(ctx.lines())).isEqualTo(List.of(inside));
  }

  @Test
  void aStoredCursorAtOrAfterUntilIsNotThisWindowsProgressSoTheWindowIsReadFromStart()
      throws Exception {
    objects.define("SetupAuditTrail", "CreatedDate", false);
    String atStart = objects.add("SetupAuditTrail", T);
    String inside = objects.add("SetupAuditTrail", T.plus(Duration.ofMinutes(30)));
    h.checkpoints =
        new java.util.HashMap<>(
            Map.of(
                "eventlog_objects:SetupAuditTrail",
                "{\"ids\": [], \"last_ts\": \""
                    + T.plus(Duration.ofHours(3))
                    + "\"}")); // another, later window's progress

    RecordingSourceContext ctx = h.run(bounded("SetupAuditTrail", UNTIL), afterWaits(5));

    assertThat(ObjectsHarness.ids(ctx.lines())).containsExactly(atStart, inside);
  }

  @Test
  void aCrossedWindowIsAConfigurationError() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ObjectsHarness.config("start = \"2026-07-02\", until = \"2026-07-01\""))
        .hasMessageContaining("sources.eventlog_objects.until")
        .hasMessageContaining("must be after");
  }
}
