package io.sf2loki.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LogEntryTest {

  @Test
  void labelsAndMetadataAreSortedSoEqualDataIsEqual() {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("source", "eventlogfile");
    a.put("job", "sf2loki");
    LogEntry entry = LogEntry.of(1, a, "x", Map.of(), Optional.empty());
    assertThat(entry.labels().keySet()).containsExactly("job", "source");
    assertThat(entry)
        .isEqualTo(
            LogEntry.of(
                1,
                Map.of("job", "sf2loki", "source", "eventlogfile"),
                "x",
                Map.of(),
                Optional.empty()));
  }

  @Test
  void utf8SizeCountsMultiByteCharactersAndAllFields() {
    String line = "héllo ✓";
    LogEntry entry = LogEntry.of(1, Map.of("job", "x"), line, Map.of("k", "vv"), Optional.empty());
    int expected =
        LogEntry.ENTRY_OVERHEAD_BYTES + line.getBytes(StandardCharsets.UTF_8).length + 4 + 3;
    assertThat(entry.utf8Size()).isEqualTo(expected);
  }

  @Test
  void checkpointOnlyEntryCarriesItsTokenAndNoLine() {
    LogEntry marker = LogEntry.checkpointOnly(new CheckpointToken("apexlog", "v"));
    assertThat(marker.isCheckpointOnly()).isTrue();
    assertThat(marker.line()).isEmpty();
    assertThat(marker.checkpoint()).contains(new CheckpointToken("apexlog", "v"));
  }

  @Test
  void reservedEpochKeyCannotBeACheckpoint() {
    assertThatThrownBy(() -> new CheckpointToken("__fence_epoch__", "3"))
        .hasMessageContaining("reserved");
  }

  @Test
  void batchCommitsTheLastValuePerKeyInFirstSeenOrder() {
    Batch batch =
        new Batch(
            List.of(
                entry("b", "1"),
                entry("a", "1"),
                LogEntry.checkpointOnly(new CheckpointToken("b", "2")),
                entry("a", "3")));
    assertThat(batch.lastCheckpointPerKey())
        .containsExactly(Map.entry("b", "2"), Map.entry("a", "3"));
    assertThat(batch.deliverable()).hasSize(3);
    assertThat(batch.isCheckpointOnly()).isFalse();
  }

  @Test
  void anEntryWithACheckpointEndsItsUnit() {
    assertThat(entry("k", "v").endsUnit()).isTrue();
    assertThat(LogEntry.checkpointOnly(new CheckpointToken("k", "v")).endsUnit()).isTrue();
  }

  @Test
  void anEntryWithoutACheckpointDoesNotEndItsUnit() {
    assertThat(LogEntry.of(1, Map.of(), "line", Map.of(), Optional.empty()).endsUnit()).isFalse();
  }

  @Test
  void anEntryCarryingThePositionBeforeItsUnitDoesNotEndIt() {
    LogEntry row = entry("k", "before-the-file").withCheckpointBeforeItsUnit();

    assertThat(row.endsUnit()).isFalse();
    assertThat(row.checkpoint()).contains(new CheckpointToken("k", "before-the-file"));
    assertThat(row.withLine("truncated").endsUnit()).isFalse();
  }

  @Test
  void onlyALineWithACheckpointCanCarryOneBeforeItsUnit() {
    assertThatThrownBy(
            () ->
                LogEntry.of(1, Map.of(), "l", Map.of(), Optional.empty())
                    .withCheckpointBeforeItsUnit())
        .isInstanceOf(IllegalStateException.class);
  }

  private static LogEntry entry(String key, String value) {
    return LogEntry.of(1, Map.of(), "line", Map.of(), Optional.of(new CheckpointToken(key, value)));
  }
}
