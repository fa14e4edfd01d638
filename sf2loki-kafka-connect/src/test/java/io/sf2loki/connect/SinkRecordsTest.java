package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class SinkRecordsTest {

  private static final LogEntry ENTRY =
      LogEntry.of(
          1_700_000_000_123_456_789L,
          Map.of("job", "sf2loki"),
          "line",
          Map.of("request_id", "r1"),
          Optional.of(new CheckpointToken("apexlog", "t")));

  private static final LogEntry REBUILT =
      LogEntry.of(
          1_700_000_000_123_456_789L,
          Map.of("job", "sf2loki"),
          "line",
          Map.of("request_id", "r1"),
          Optional.empty());

  @Test
  void theEntryIsRebuiltFromTheStructASchemaAwareConverterReads() {
    SinkRecord record =
        new SinkRecord(
            "t", 0, Schema.STRING_SCHEMA, "k", EntryRecords.VALUE, EntryRecords.value(ENTRY), 7);

    assertThat(SinkRecords.entry(record)).contains(REBUILT);
  }

  @Test
  void theEntryIsRebuiltFromTheMapOfSchemalessJson() {
    Map<String, Object> json =
        Map.of(
            "timestamp_ns",
            1_700_000_000_123_456_789L,
            "labels",
            Map.of("job", "sf2loki"),
            "structured_metadata",
            Map.of("request_id", "r1"),
            "line",
            "line");

    assertThat(SinkRecords.entry(new SinkRecord("t", 0, null, null, null, json, 7)))
        .contains(REBUILT);
  }

  @Test
  void aCheckpointOnlyRecordHasNoEntry() {
    assertThat(SinkRecords.entry(new SinkRecord("t", 0, null, null, null, null, 7))).isEmpty();
  }

  @Test
  void aValueThatIsNotAnEntryIsADataErrorNamingTheRecord() {
    assertThatThrownBy(() -> SinkRecords.entry(new SinkRecord("t", 3, null, null, null, "x", 9)))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("t-3@9");
  }
}
