package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class EntryRecordsTest {

  private static final LogEntry ENTRY =
      LogEntry.of(
          1_700_000_000_123_456_789L,
          Map.of("job", "sf2loki", "event_type", "Login"),
          "{\"USER_ID\":\"005\"}",
          Map.of("request_id", "r1"),
          Optional.of(new CheckpointToken("eventlogfile:Login", "tok-1")));

  @Test
  void theValueCarriesEverythingTheLokiEntryIsRebuiltFrom() {
    SourceRecord record = EntryRecords.of("prod", "sf", ENTRY);

    Struct value = (Struct) record.value();
    assertThat(value.getInt64("timestamp_ns")).isEqualTo(1_700_000_000_123_456_789L);
    assertThat(value.getMap("labels")).isEqualTo(Map.of("job", "sf2loki", "event_type", "Login"));
    assertThat(value.getMap("structured_metadata")).isEqualTo(Map.of("request_id", "r1"));
    assertThat(value.getString("line")).isEqualTo("{\"USER_ID\":\"005\"}");
    assertThat(record.timestamp()).isEqualTo(1_700_000_000_123L);
    assertThat(record.topic()).isEqualTo("sf");
  }

  @Test
  void theKeyIsTheLokiStreamSoOneStreamStaysInOnePartition() {
    assertThat(EntryRecords.of("prod", "sf", ENTRY).key())
        .isEqualTo("{event_type=\"Login\",job=\"sf2loki\"}");
    assertThat(EntryRecords.stream(StringMap.of("a", "x\"y\\z"))).isEqualTo("{a=\"x\\\"y\\\\z\"}");
  }

  @Test
  void thePartitionIsTheOrgAndCheckpointKeyAndTheOffsetTheToken() {
    SourceRecord record = EntryRecords.of("prod", "sf", ENTRY);

    assertThat(record.sourcePartition())
        .isEqualTo(Map.of("org", "prod", "key", "eventlogfile:Login"));
    assertThat(record.sourceOffset()).isEqualTo(Map.of("token", "tok-1"));
    assertThat(EntryRecords.token(record.sourceOffset())).contains("tok-1");
  }

  @Test
  void aCheckpointOnlyEntryIsAMarkedRecordWithoutKeyOrValueThatStillCarriesItsOffset() {
    SourceRecord record =
        EntryRecords.of(
            "prod", "sf", LogEntry.checkpointOnly(new CheckpointToken("eventlogfile:Login", "t2")));

    assertThat(record.key()).isNull();
    assertThat(record.value()).isNull();
    assertThat(record.headers().lastWithName(EntryRecords.CHECKPOINT_ONLY_HEADER).value())
        .isEqualTo(true);
    assertThat(record.sourceOffset()).isEqualTo(Map.of("token", "t2"));
  }

  @Test
  void anOffsetThatIsNotOursHasNoToken() {
    assertThat(EntryRecords.token(null)).isEmpty();
    assertThat(EntryRecords.token(Map.of("position", 5L))).isEmpty();
  }
}
