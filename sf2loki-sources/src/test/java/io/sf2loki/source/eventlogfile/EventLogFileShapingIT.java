package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The shared shaping rules applied to EventLogFile rows. */
class EventLogFileShapingIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final ElfFixture fx = new ElfFixture();

  @AfterEach
  void close() throws Exception {
    fx.close();
  }

  private static JsonNode json(LogEntry e) throws Exception {
    return JSON.readTree(e.line());
  }

  @Test
  void transformsRewriteRowsAndConfiguredColumnsBecomeStructuredMetadata() throws Exception {
    LogFileSpec f = fx.file("Login", 30, 3);
    EventLogFileConfig config =
        ElfFixture.bind(
            "sources.eventlogfile { event_types = [Login], settle_window = 0s,"
                + " structured_metadata_fields = [REQUEST_ID],"
                + " transforms = [{action = hash, fields = [USER_ID]},"
                + " {action = drop_field, fields = [SESSION_KEY]}] }");
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(config).cycleOnce(ctx);

    LogFileCsv csv = fx.sf.csv(f);
    assertThat(ctx.rows()).hasSize(3);
    for (int i = 0; i < 3; i++) {
      LogEntry e = ctx.rows().get(i);
      JsonNode line = json(e);
      String originalUser = csv.expectedRow(i).get("USER_ID");
      assertThat(line.get("USER_ID").asText()).matches("[0-9a-f]{16}").isNotEqualTo(originalUser);
      assertThat(line.has("SESSION_KEY")).isFalse();
      assertThat(e.metadata())
          .containsEntry("REQUEST_ID", csv.expectedRow(i).get("REQUEST_ID"))
          .containsKey("level");
    }
  }

  @Test
  void promotedColumnBecomesAStreamLabelUnderTheIdentityLabels() throws Exception {
    fx.file("Login", 30, 2);
    EventLogFileConfig config =
        ElfFixture.bind(
            "sources.eventlogfile { settle_window = 0s,"
                + " event_types = [{name = Login, labels = [EVENT_TYPE]}] }");
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(config).cycleOnce(ctx);
    assertThat(ctx.rows())
        .allSatisfy(
            e ->
                assertThat(e.labels())
                    .containsEntry("EVENT_TYPE", "Login")
                    .containsEntry("event_type", "Login")
                    .containsEntry("source", "eventlogfile"));
  }

  @Test
  void droppedLastRowHandsTheAdvanceToTheLastKeptRow() throws Exception {
    LogFileSpec f = fx.file("Login", 30, 3);
    EventLogFileConfig config =
        ElfFixture.bind(
            "sources.eventlogfile { event_types = [Login], settle_window = 0s,"
                + " transforms = [{name = no-last, action = drop_row,"
                + " match = {REQUEST_ID = \"*-2\"}}] }");
    RecordingSourceContext first = new RecordingSourceContext();
    fx.source(config).cycleOnce(first);

    assertThat(first.entries()).hasSize(2).noneMatch(LogEntry::isCheckpointOnly);
    assertThat(
            ElfCheckpoint.parse(first.rows().get(0).checkpoint().orElseThrow().value())
                .contains(f.id(), f.createdDate()))
        .isFalse();
    assertThat(
            ElfCheckpoint.parse(first.rows().get(1).checkpoint().orElseThrow().value())
                .contains(f.id(), f.createdDate()))
        .isTrue();
    assertThat(fx.counter("sf2loki_rows_filtered", "source", "eventlogfile", "rule", "no-last"))
        .isEqualTo(1);

    RecordingSourceContext second = new RecordingSourceContext();
    first.deliverAll().forEach(second::committed);
    fx.source(config).cycleOnce(second);
    assertThat(second.entries()).isEmpty();
  }

  @Test
  void samplingKeepsExactlyTheSameRowsAcrossRuns() throws Exception {
    fx.file("Login", 30, 200);
    EventLogFileConfig config =
        ElfFixture.bind(
            "sources.eventlogfile { settle_window = 0s,"
                + " event_types = [{name = Login, sample = 0.5}] }");
    RecordingSourceContext first = new RecordingSourceContext();
    fx.source(config).cycleOnce(first);
    RecordingSourceContext restarted = new RecordingSourceContext(); // nothing was committed
    fx.source(config).cycleOnce(restarted);

    List<String> kept = first.rows().stream().map(LogEntry::line).toList();
    assertThat(kept).hasSizeBetween(60, 140);
    assertThat(restarted.rows().stream().map(LogEntry::line).toList())
        .containsExactlyElementsOf(kept);
    assertThat(fx.counter("sf2loki_entries_sampled_out", "event_type", "Login"))
        .isEqualTo(2.0 * (200 - kept.size()));
    assertThat(first.checkpointOnlyTokens()).isEmpty(); // the last kept row carries the advance
  }
}
