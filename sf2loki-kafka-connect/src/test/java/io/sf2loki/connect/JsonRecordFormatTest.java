package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.StringConverter;
import org.junit.jupiter.api.Test;

/**
 * {@code sf2loki.record.format=json}: the entry as JSON bytes, written by the source's threads,
 * that reach Loki as the same entry as the struct format.
 */
class JsonRecordFormatTest {

  private static final LogEntry ENTRY =
      LogEntry.of(
          1_733_551_200_123_456_789L,
          Map.of("job", "sf2loki", "event_type", "Login", "org", "é \"q\" \\ ✓"),
          "{\"USER_ID\":\"005\",\"NOTE\":\"line\\nbreak \\u00e9\"}",
          Map.of("request_id", "r1", "user_id", "005xx"),
          Optional.of(new CheckpointToken("eventlogfile:Login", "tok-1")));

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the worker's converter writes to the topic for {@code record}'s value. */
  private static byte[] written(
      org.apache.kafka.connect.storage.Converter converter, SourceRecord record) {
    return converter.fromConnectData("t", record.valueSchema(), record.value());
  }

  /** The sink task's record for what the source wrote, read back through {@code converter}. */
  private static SinkRecord read(
      org.apache.kafka.connect.storage.Converter converter, byte[] bytes) {
    SchemaAndValue value = converter.toConnectData("t", bytes);
    return new SinkRecord("t", 0, null, null, value.schema(), value.value(), 7);
  }

  private static JsonConverter schemalessJson() {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "false"), false);
    return converter;
  }

  private static <T extends org.apache.kafka.connect.storage.Converter> T configured(T converter) {
    converter.configure(new HashMap<>(), false);
    return converter;
  }

  @Test
  void theJsonValueIsWhatSchemalessJsonConverterWritesForTheStruct() throws Exception {
    byte[] json =
        written(
            configured(new ByteArrayConverter()),
            EntryRecords.of("prod", "sf", ENTRY, RecordFormat.JSON));
    byte[] struct = written(schemalessJson(), EntryRecords.of("prod", "sf", ENTRY));

    assertThat(JSON.readTree(json)).isEqualTo(JSON.readTree(struct));
    assertThat(new String(json, StandardCharsets.UTF_8))
        .startsWith("{\"timestamp_ns\":1733551200123456789,\"labels\":{\"event_type\":\"Login\"");
  }

  @Test
  void theJsonFormatKeepsTheKeyPartitionOffsetAndTimestampOfTheStructFormat() {
    SourceRecord json = EntryRecords.of("prod", "sf", ENTRY, RecordFormat.JSON);
    SourceRecord struct = EntryRecords.of("prod", "sf", ENTRY);

    assertThat(json.valueSchema()).isEqualTo(Schema.BYTES_SCHEMA);
    assertThat(json.key()).isEqualTo(struct.key());
    assertThat(json.sourcePartition()).isEqualTo(struct.sourcePartition());
    assertThat(json.sourceOffset()).isEqualTo(struct.sourceOffset());
    assertThat(json.timestamp()).isEqualTo(struct.timestamp());
  }

  @Test
  void aCheckpointOnlyEntryStaysAValuelessMarkedRecordInTheJsonFormat() {
    SourceRecord record =
        EntryRecords.of(
            "prod",
            "sf",
            LogEntry.checkpointOnly(new CheckpointToken("eventlogfile:Login", "t2")),
            RecordFormat.JSON);

    assertThat(record.value()).isNull();
    assertThat(record.headers().lastWithName(EntryRecords.CHECKPOINT_ONLY_HEADER).value())
        .isEqualTo(true);
    assertThat(record.sourceOffset()).isEqualTo(Map.of("token", "t2"));
  }

  @Test
  void theSinkRebuildsTheSameEntryFromTheJsonFormatAsFromTheStructFormat() {
    LogEntry fromStruct =
        SinkRecords.entry(
                read(
                    schemalessJson(),
                    written(schemalessJson(), EntryRecords.of("prod", "sf", ENTRY))))
            .orElseThrow();
    byte[] json =
        written(
            configured(new ByteArrayConverter()),
            EntryRecords.of("prod", "sf", ENTRY, RecordFormat.JSON));

    assertThat(SinkRecords.entry(read(configured(new ByteArrayConverter()), json)))
        .contains(fromStruct);
    assertThat(SinkRecords.entry(read(configured(new StringConverter()), json)))
        .contains(fromStruct);
    assertThat(SinkRecords.entry(read(schemalessJson(), json))).contains(fromStruct);
    assertThat(fromStruct.labels()).isEqualTo(ENTRY.labels());
    assertThat(fromStruct.line()).isEqualTo(ENTRY.line());
  }

  @Test
  void bytesThatAreNotAnEntrysJsonAreADataErrorNamingTheRecord() {
    SinkRecord record =
        new SinkRecord("t", 2, null, null, null, "not json".getBytes(StandardCharsets.UTF_8), 11);

    assertThatThrownBy(() -> SinkRecords.entry(record))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("t-2@11");
  }
}
