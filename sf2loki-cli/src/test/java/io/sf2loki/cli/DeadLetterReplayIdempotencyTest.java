package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deadletter replay} run again and again stores each record once, also the records the sink
 * has to re-stamp (older than {@code max_age}, or late under {@code late_policy = retimestamp}),
 * whose new timestamp would otherwise move with the clock and the stream.
 */
class DeadLetterReplayIdempotencyTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> LOGIN =
      Map.of("job", "sf2loki", "source", "eventlogfile", "event_type", "Login");

  @TempDir Path dir;
  private FakeLoki loki;

  @BeforeEach
  void start() throws Exception {
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
  }

  private Path config(String extra) throws Exception {
    return Files.writeString(
        dir.resolve("sf2loki.conf"),
        ConfigCommandTest.VALID.replace("http://127.0.0.1:3100", loki.baseUri().toString())
            + "sink.loki.retry.lane_min_backoff = 10ms\n"
            + "sink.loki.retry.lane_max_backoff = 20ms\n"
            + extra);
  }

  private static long nanos(Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  /** A dead-letter file as the sink writes it: one record per line, stamped {@code at}. */
  private Path deadLetters(Instant at, String... lines) throws Exception {
    List<String> records = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      Map<String, Object> record = new LinkedHashMap<>();
      record.put("time", Instant.now().toString());
      record.put("reason", "bad_request");
      record.put("status", 400);
      record.put("error", "rejected");
      record.put("labels", LOGIN);
      record.put("timestamp", Long.toString(nanos(at) + i));
      record.put("line", lines[i]);
      record.put("structured_metadata", Map.of("user_id", "005" + i));
      records.add(JSON.writeValueAsString(record));
    }
    return Files.write(dir.resolve("dead.jsonl"), records);
  }

  private CliRun replay(Path config, Path file) {
    return CliRun.of("--config", config.toString(), "deadletter", "replay", file.toString());
  }

  /** What the daemon keeps pushing into the records' stream meanwhile: one entry at {@code at}. */
  private void live(Instant at) throws Exception {
    String body =
        JSON.writeValueAsString(
            Map.of(
                "streams",
                List.of(
                    Map.of(
                        "stream",
                        LOGIN,
                        "values",
                        List.of(List.of(Long.toString(nanos(at)), "live " + at))))));
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(loki.pushUri())
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
  }

  private List<AcceptedEntry> copiesOf(String line) {
    return loki.entries().stream().filter(e -> e.line().equals(line)).toList();
  }

  @Test
  void aRecordOlderThanMaxAgeLandsOnceHoweverOftenItIsReplayed() throws Exception {
    Path config = config("");
    Path file = deadLetters(Instant.now().minus(Duration.ofDays(8)), "{\"old\":1}", "{\"old\":2}");

    CliRun first = replay(config, file);
    CliRun second = replay(config, file);
    CliRun third = replay(config, file);

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(second.exitCode()).as(second.err()).isZero();
    assertThat(third.exitCode()).as(third.err()).isZero();
    assertThat(copiesOf("{\"old\":1}")).hasSize(1);
    assertThat(copiesOf("{\"old\":2}")).hasSize(1);
    assertThat(loki.entries()).hasSize(2);
    assertThat(first.out()).contains("2 entries of ").doesNotContain("already replayed");
    assertThat(third.out()).contains("0 entries of ").contains("2 already replayed, skipped");
  }

  @Test
  void aRecordRestampedAsLateLandsOnceWhileItsStreamMovesOn() throws Exception {
    Path config = config("sink.loki.late_policy = retimestamp\n");
    Instant now = Instant.now();
    Path file = deadLetters(now.minus(Duration.ofHours(3)), "{\"late\":1}");

    for (int run = 0; run < 3; run++) {
      live(now.plusSeconds(run * 60L)); // the daemon pushes newer entries in between
      CliRun replay = replay(config, file);
      assertThat(replay.exitCode()).as(replay.err()).isZero();
    }

    assertThat(copiesOf("{\"late\":1}"))
        .singleElement()
        .satisfies(e -> assertThat(e.metadata()).containsKey("event_time"));
  }

  @Test
  void aRunCutShortBetweenThePushAndTheMarkStoresNothingTwiceWhenRunAgain() throws Exception {
    Path config = config("");
    Path file = deadLetters(Instant.now().minus(Duration.ofDays(8)), "{\"old\":1}", "{\"old\":2}");
    assertThat(replay(config, file).exitCode()).isZero();
    Path journal = dir.resolve("dead.jsonl.replay");
    // What a run killed after Loki's answer leaves: the placements, not the marks.
    List<String> placed =
        Files.readAllLines(journal).stream().filter(l -> !l.startsWith("{\"stored\"")).toList();
    Files.write(journal, placed);

    CliRun again = replay(config, file);

    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).contains("2 entries of ").doesNotContain("already replayed");
    assertThat(copiesOf("{\"old\":1}")).hasSize(1);
    assertThat(copiesOf("{\"old\":2}")).hasSize(1);
    assertThat(replay(config, file).out()).contains("2 already replayed, skipped");
  }

  @Test
  void aDeadLetterFileWithoutAJournalReplaysAndGainsOne() throws Exception {
    Path file = deadLetters(Instant.now(), "{\"a\":1}");
    String before = Files.readString(file);

    CliRun run = replay(config(""), file);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(copiesOf("{\"a\":1}")).hasSize(1);
    assertThat(Files.readString(file)).isEqualTo(before);
    assertThat(dir.resolve("dead.jsonl.replay")).isNotEmptyFile();
  }
}
