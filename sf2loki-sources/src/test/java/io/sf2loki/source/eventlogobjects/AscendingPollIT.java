package io.sf2loki.source.eventlogobjects;

import static io.sf2loki.salesforce.testing.RecordingSourceContext.afterWaits;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.testing.RecordingSourceContext;
import io.sf2loki.testkit.salesforce.EventObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AscendingPollIT {

  static final String AUDIT =
      "objects = [{name = SetupAuditTrail, settle_window = 0}], poll_interval = 1m, lookback = 1h";

  final ObjectsHarness h = new ObjectsHarness();

  @AfterEach
  void close() throws Exception {
    h.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 200, 5000})
  void aTieGroupOfAnySizeIsDeliveredOnceAndNeverRepeated(int size) throws Exception {
    h.sf.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    Instant t = ObjectsHarness.START.minusSeconds(600);
    List<String> expected = new ArrayList<>();
    expected.add(h.sf.eventObjects().add("SetupAuditTrail", t.minusSeconds(1)));
    expected.addAll(h.sf.eventObjects().addTieGroup("SetupAuditTrail", t, size));
    expected.add(h.sf.eventObjects().add("SetupAuditTrail", t.plusSeconds(1)));

    RecordingSourceContext first = h.run(AUDIT, afterWaits(3));
    RecordingSourceContext restarted = h.run(AUDIT, afterWaits(2));

    assertThat(ObjectsHarness.ids(first.lines())).containsExactlyElementsOf(expected);
    assertThat(restarted.lines()).isEmpty();
    String cursor = h.checkpoints.get("eventlog_objects:SetupAuditTrail");
    assertThat(cursor).endsWith("\"last_ts\": \"" + "2026-06-30T11:50:01.000+0000" + "\"}");
  }

  @Test
  void aCursorTravelsOnlyOnTheLastEntryOfEachPage() throws Exception {
    h.sf.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    h.sf.eventObjects().addTieGroup("SetupAuditTrail", ObjectsHarness.START.minusSeconds(60), 450);

    RecordingSourceContext ctx = h.run(AUDIT, afterWaits(1));

    assertThat(ctx.lines()).hasSize(450);
    assertThat(ctx.lines().stream().filter(e -> e.checkpoint().isPresent()).count()).isEqualTo(3);
    assertThat(ctx.lines().get(449).checkpoint()).isPresent();
  }

  @Test
  void rowsVisibleLateBehindTheWatermarkArePickedUpWithinTheSettleWindow() throws Exception {
    List<String> delivered = lateRowScenario("settle_window = 5m");
    assertThat(delivered).hasSize(3).doesNotHaveDuplicates();
  }

  @Test
  void withoutASettleWindowALateRowIsSkipped() throws Exception {
    assertThat(lateRowScenario("settle_window = 0")).hasSize(2);
  }

  private List<String> lateRowScenario(String settle) throws Exception {
    EventObjects objects = h.sf.eventObjects();
    objects.define("LoginHistory", "LoginTime", false);
    Instant t0 = ObjectsHarness.START.plusSeconds(30);
    objects.add("LoginHistory", t0.minusSeconds(20));
    // committed at t0 but visible 4 minutes later; a newer row is visible at once
    objects.add("LoginHistory", t0, t0.plus(Duration.ofMinutes(4)), Map.of());
    objects.add("LoginHistory", t0.plusSeconds(1), t0.plusSeconds(1), Map.of());
    String config = "objects = [{name = LoginHistory}], poll_interval = 1m, " + settle;
    RecordingSourceContext ctx = h.run(config, afterWaits(12));
    return ObjectsHarness.ids(ctx.lines());
  }

  @Test
  void linesAreByteIdenticalAcrossRunsAndDropAttributes() throws Exception {
    h.sf.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    h.sf.eventObjects().addTieGroup("SetupAuditTrail", ObjectsHarness.START.minusSeconds(60), 30);

    List<String> first = h.run(AUDIT, afterWaits(1)).lines().stream().map(e -> e.line()).toList();
    h.checkpoints.clear();
    List<String> replay = h.run(AUDIT, afterWaits(1)).lines().stream().map(e -> e.line()).toList();

    assertThat(replay).isEqualTo(first);
    assertThat(first.get(0)).startsWith("{\"CreatedDate\": ").doesNotContain("attributes");
  }

  @Test
  void aCorruptCheckpointFallsBackToLookbackAndIsCounted() throws Exception {
    h.sf.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    h.sf.eventObjects().add("SetupAuditTrail", ObjectsHarness.START.minus(Duration.ofHours(2)));
    String recent =
        h.sf.eventObjects().add("SetupAuditTrail", ObjectsHarness.START.minusSeconds(60));
    h.checkpoints.put("eventlog_objects:SetupAuditTrail", "{\"ids\": 7}");

    RecordingSourceContext ctx = h.run(AUDIT, afterWaits(1));

    assertThat(ObjectsHarness.ids(ctx.lines())).containsExactly(recent);
    assertThat(h.counter("sf2loki_checkpoint_load_errors", "source", "eventlog_objects"))
        .isEqualTo(1);
  }

  @Test
  void aLegacyBareTimestampCheckpointIsAccepted() throws Exception {
    h.sf.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    h.sf.eventObjects().add("SetupAuditTrail", ObjectsHarness.START.minusSeconds(120));
    String newer =
        h.sf.eventObjects().add("SetupAuditTrail", ObjectsHarness.START.minusSeconds(30));
    h.checkpoints.put("eventlog_objects:SetupAuditTrail", "2026-06-30T11:59:00.000+0000");

    assertThat(ObjectsHarness.ids(h.run(AUDIT, afterWaits(1)).lines())).containsExactly(newer);
  }
}
