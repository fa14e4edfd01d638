package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.loki.EntryRejection;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeadLetterReplayTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private FakeLoki loki;
  private Path config;

  @BeforeEach
  void start() throws Exception {
    loki = FakeLoki.start();
    config =
        Files.writeString(
            dir.resolve("sf2loki.conf"),
            ConfigCommandTest.VALID.replace("http://127.0.0.1:3100", loki.baseUri().toString())
                + "sink.loki.retry.lane_min_backoff = 10ms\n"
                + "sink.loki.retry.lane_max_backoff = 20ms\n");
  }

  @AfterEach
  void stop() {
    loki.close();
  }

  /** A dead-letter file as the sink writes it, one record per line. */
  private Path deadLetters(String... lines) throws Exception {
    List<String> records = new ArrayList<>();
    long now = Instant.now().toEpochMilli() * 1_000_000L;
    for (int i = 0; i < lines.length; i++) {
      Map<String, Object> record = new LinkedHashMap<>();
      record.put("time", Instant.now().toString());
      record.put("reason", "bad_request");
      record.put("status", 400);
      record.put("error", "rejected");
      record.put(
          "labels", Map.of("job", "sf2loki", "source", "eventlogfile", "event_type", "Login"));
      record.put("timestamp", Long.toString(now + i));
      record.put("line", lines[i]);
      record.put("structured_metadata", Map.of("user_id", "005" + i));
      records.add(JSON.writeValueAsString(record));
    }
    return Files.write(dir.resolve("dead.jsonl"), records);
  }

  private CliRun replay(Path file, String... extra) {
    List<String> args =
        new ArrayList<>(List.of("--config", config.toString(), "deadletter", "replay"));
    args.add(file.toString());
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void everyEntryReachesLokiAndTheExitIsZero() throws Exception {
    CliRun run = replay(deadLetters("{\"a\":1}", "{\"a\":2}", "{\"a\":3}"));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("deadletter replay: 3 entries of ").contains(" replayed");
    assertThat(loki.lines()).containsExactly("{\"a\":1}", "{\"a\":2}", "{\"a\":3}");
  }

  @Test
  void replayingTwiceStoresEachEntryOnce() throws Exception {
    Path file = deadLetters("{\"a\":1}", "{\"a\":2}");
    replay(file);
    CliRun again = replay(file);

    assertThat(again.exitCode()).isZero();
    assertThat(loki.entries()).hasSize(2);
  }

  @Test
  void aMalformedLineIsSkippedByNumberAndFailsTheRun() throws Exception {
    Path file = deadLetters("{\"a\":1}", "{\"a\":2}");
    Files.writeString(file, "{\"timestamp\": truncated\n", java.nio.file.StandardOpenOption.APPEND);

    CliRun run = replay(file);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .contains("2 entries of ")
        .contains("1 malformed lines skipped")
        .contains("deadletter replay: skipped line 3: not JSON: ");
    assertThat(loki.lines()).hasSize(2);
  }

  @Test
  void anEntryRejectedAgainGoesToItsOwnFileNotTheOneRead() throws Exception {
    loki.rejectEntries(new EntryRejection("POISON", 400));
    Path file = deadLetters("{\"a\":1}", "{\"a\":\"POISON\"}");
    String before = Files.readString(file);

    CliRun run = replay(file);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("1 entries of ").contains("1 rejected again (written to ");
    assertThat(loki.lines()).containsExactly("{\"a\":1}");
    assertThat(Files.readString(file)).isEqualTo(before);
    assertThat(Files.readAllLines(dir.resolve("dead.jsonl.rejected")))
        .singleElement()
        .asString()
        .contains("POISON");
  }

  @Test
  void lokiFailingBeyondTheAttemptsFailsNamingWhatToDo() throws Exception {
    loki.addFault(Fault.status(503, 10));

    CliRun run = replay(deadLetters("{\"a\":1}"), "--attempts", "2");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("the sink still fails after 2 attempts")
        .contains("run the replay again");
    assertThat(loki.lines()).isEmpty();
  }

  @Test
  void aMissingFileFailsWithItsName() {
    Path absent = dir.resolve("absent.jsonl");
    CliRun run = replay(absent);
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("dead-letter file " + absent + " does not exist");
  }

  @Test
  void attemptsBelowOneIsAUsageError() throws Exception {
    CliRun run = replay(deadLetters("{\"a\":1}"), "--attempts", "0");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--attempts must be at least 1, not 0");
  }
}
