package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.model.LogEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeadLetterRecordsTest {

  @TempDir Path dir;

  @Test
  void aWrittenRecordReadsBackAsTheSameEntryWithoutCheckpoint() throws Exception {
    LogEntry entry =
        LogEntry.of(
            1_700_000_000_123_456_789L,
            Map.of("job", "sf2loki", "event_type", "Login"),
            "{\"USER_ID\":\"005\",\"note\":\"é \\\"quoted\\\"\"}",
            Map.of("user_id", "005"),
            Optional.empty());
    DeadLetterFile file =
        new DeadLetterFile(
            dir.resolve("dead.jsonl"),
            1 << 20,
            Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC));
    file.append(entry, "bad_request", 400, "entry too far behind");

    List<String> lines = Files.readAllLines(file.path());
    LogEntry read = DeadLetterRecords.parse(lines.get(0));

    assertThat(read).isEqualTo(entry);
    assertThat(read.checkpoint()).isEmpty();
  }

  @Test
  void aLineThatIsNotJsonIsMalformed() {
    assertThatThrownBy(() -> DeadLetterRecords.parse("{\"timestamp\": \"1\", truncated"))
        .isInstanceOf(DeadLetterRecords.MalformedRecordException.class)
        .hasMessageStartingWith("not JSON: ");
  }

  @Test
  void aRecordMissingItsLineIsMalformed() {
    assertThatThrownBy(
            () ->
                DeadLetterRecords.parse(
                    "{\"timestamp\":\"1\",\"labels\":{},\"structured_metadata\":{}}"))
        .isInstanceOf(DeadLetterRecords.MalformedRecordException.class)
        .hasMessage("line is missing or not a string");
  }

  @Test
  void aTimestampThatIsNotNanosecondsIsMalformed() {
    assertThatThrownBy(
            () ->
                DeadLetterRecords.parse(
                    "{\"timestamp\":\"yesterday\",\"line\":\"x\",\"labels\":{},"
                        + "\"structured_metadata\":{}}"))
        .isInstanceOf(DeadLetterRecords.MalformedRecordException.class)
        .hasMessage("timestamp is not nanoseconds since the epoch");
  }

  @Test
  void aLabelValueThatIsNotAStringIsMalformed() {
    assertThatThrownBy(
            () ->
                DeadLetterRecords.parse(
                    "{\"timestamp\":\"1\",\"line\":\"x\",\"labels\":{\"job\":1},"
                        + "\"structured_metadata\":{}}"))
        .hasMessage("labels.job is not a string");
  }
}
