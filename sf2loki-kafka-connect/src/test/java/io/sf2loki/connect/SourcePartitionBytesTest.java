package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.StopTrigger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * Connect finds a committed source offset by the bytes of its serialized partition (as {@code
 * OffsetStorageReaderImpl} does), so a partition must serialize alike in every worker's JVM: the
 * crash test's successor task on another worker otherwise found no offset and read its org again.
 */
class SourcePartitionBytesTest {

  private static final JsonConverter CONVERTER = new JsonConverter();

  static {
    CONVERTER.configure(Map.of("schemas.enable", "false"), true);
  }

  /** Connect's offsets key: {@code [connector, partition]}, serialized schemaless. */
  private static ByteBuffer key(Map<String, String> partition) {
    return ByteBuffer.wrap(CONVERTER.fromConnectData("", null, List.of("src", partition)));
  }

  @Test
  void thePartitionSerializesWithTheOrgFirstInEveryJvm() {
    byte[] bytes = key(EntryRecords.partition("prod", "eventlogfile:Login")).array();

    assertThat(new String(bytes, StandardCharsets.UTF_8))
        .isEqualTo("[\"src\",{\"org\":\"prod\",\"key\":\"eventlogfile:Login\"}]");
  }

  @Test
  void anOffsetCommittedWithTheKeyFirstIsStillFound() {
    Map<ByteBuffer, Map<String, Object>> committed = new HashMap<>();
    committed.put(
        key(EntryRecords.partitionKeyFirst("prod", "eventlogfile:Login")),
        Map.of(EntryRecords.TOKEN, "tok-7"));
    OrgContext context =
        new OrgContext(
            "prod",
            "t",
            RecordFormat.STRUCT,
            new RecordQueue(1),
            p -> committed.get(key(p)),
            new StopTrigger());

    assertThat(context.checkpoint("eventlogfile:Login")).contains("tok-7");
  }
}
