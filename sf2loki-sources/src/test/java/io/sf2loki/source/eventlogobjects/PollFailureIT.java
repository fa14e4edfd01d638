package io.sf2loki.source.eventlogobjects;

import static io.sf2loki.salesforce.testing.RecordingSourceContext.afterWaits;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.testing.RecordingSourceContext;
import io.sf2loki.testkit.salesforce.Fault;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PollFailureIT {

  static final String TWO =
      "objects = [{name = SetupAuditTrail}, {name = LoginHistory}], poll_interval = 1m,"
          + " settle_window = 0";

  final ObjectsHarness h = new ObjectsHarness();
  final List<String> expected = new ArrayList<>();

  @BeforeEach
  void rows() {
    h.sf.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    h.sf.eventObjects().define("LoginHistory", "LoginTime", false);
    for (int i = 0; i < 5; i++) {
      expected.add(
          h.sf.eventObjects().add("SetupAuditTrail", ObjectsHarness.START.minusSeconds(100 - i)));
    }
    for (int i = 0; i < 5; i++) {
      expected.add(
          h.sf.eventObjects().add("LoginHistory", ObjectsHarness.START.minusSeconds(100 - i)));
    }
  }

  @AfterEach
  void close() throws Exception {
    h.close();
  }

  @Test
  void aThrottleDefersEveryDueObjectByOneIntervalAndLosesNothing() throws Exception {
    h.sf.inject(Fault.requestLimitExceeded(Fault.Route.QUERY));

    RecordingSourceContext ctx = h.run(TWO, afterWaits(1));
    assertThat(ctx.lines()).isEmpty();
    assertThat(h.counter("sf2loki_salesforce_api_throttled", "api", "soql")).isEqualTo(1);

    RecordingSourceContext next = h.run(TWO, afterWaits(1));
    assertThat(ObjectsHarness.ids(next.lines())).containsExactlyElementsOf(expected);
  }

  @Test
  void aMalformedOrFailedPollSkipsOnlyThatObjectUntilItsNextInterval() throws Exception {
    h.sf.inject(Fault.malformed(Fault.Route.QUERY, Fault.Kind.NON_JSON));

    RecordingSourceContext ctx = h.run(TWO, afterWaits(1));
    assertThat(ObjectsHarness.ids(ctx.lines())).containsExactlyElementsOf(expected.subList(5, 10));
    assertThat(
            h.counter(
                "sf2loki_soql_poll_errors",
                "source",
                "eventlog_objects",
                "object",
                "SetupAuditTrail"))
        .isEqualTo(1);

    h.sf.inject(Fault.serverError(Fault.Route.QUERY));
    RecordingSourceContext later = h.run(TWO, afterWaits(2));
    assertThat(ObjectsHarness.ids(later.lines())).containsExactlyElementsOf(expected.subList(0, 5));
  }

  @Test
  void anExpiredSessionIsRenewedWithinTheSameCycle() throws Exception {
    h.sf.expireAllTokens();
    h.sf.inject(Fault.invalidSession(Fault.Route.QUERY));

    RecordingSourceContext ctx = h.run(TWO, afterWaits(1));

    assertThat(ObjectsHarness.ids(ctx.lines())).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void sampledOutAndDroppedRowsStillAdvanceTheCursorAndStayStableAcrossRestarts() throws Exception {
    String config =
        "objects = [{name = SetupAuditTrail, sample = 0.5}], poll_interval = 1m, settle_window = 0,"
            + " transforms = [{name = no-fail, action = drop_row, match = {Status = Failed}}]";
    RecordingSourceContext first = h.run(config, afterWaits(1));
    List<String> kept = ObjectsHarness.ids(first.lines());
    String cursor = h.checkpoints.get("eventlog_objects:SetupAuditTrail");

    h.checkpoints.clear();
    List<String> again = ObjectsHarness.ids(h.run(config, afterWaits(1)).lines());

    assertThat(again).isEqualTo(kept);
    assertThat(kept.size()).isLessThan(5);
    assertThat(cursor).contains(expected.get(4)); // the last row advanced the cursor either way
    assertThat(
            h.counter(
                    "sf2loki_entries_sampled_out",
                    "source",
                    "eventlog_objects",
                    "event_type",
                    "SetupAuditTrail")
                + h.counter(
                    "sf2loki_rows_filtered", "source", "eventlog_objects", "rule", "no-fail"))
        .isEqualTo(2 * (5 - kept.size()));
  }
}
