package io.sf2loki.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.model.Batch;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BatcherTest {

  static final long SECOND = 1_000_000_000L;

  static LogEntry line(String text) {
    return LogEntry.of(1, Map.of("job", "x"), text, Map.of(), Optional.empty());
  }

  static LogEntry marker(String key) {
    return LogEntry.checkpointOnly(new CheckpointToken(key, "v"));
  }

  @Test
  void flushesAtMaxEntriesCountingCheckpointOnlyEntries() {
    Batcher b = new Batcher(3, 1_000_000, Duration.ofSeconds(1));

    assertThat(b.add(line("a"), 0)).isEmpty();
    assertThat(b.add(marker("k"), 0)).isEmpty();
    Optional<Batch> full = b.add(line("b"), 0);

    assertThat(full).hasValueSatisfying(batch -> assertThat(batch.entries()).hasSize(3));
    assertThat(b.drain()).isEmpty();
  }

  @Test
  void flushesWhenLineBytesPlusOverheadReachMaxBytes() {
    Batcher b = new Batcher(1000, 200, Duration.ofSeconds(1));

    assertThat(b.add(line("x".repeat(36)), 0)).isEmpty(); // 100
    assertThat(b.add(marker("k"), 0)).isEmpty(); // free
    assertThat(b.add(line("y".repeat(36)), 0)).isPresent(); // 200
  }

  @Test
  void flushesOneIntervalAfterTheFirstEntryOfAnEmptyBatch() {
    Batcher b = new Batcher(1000, 1_000_000, Duration.ofSeconds(1));
    b.add(line("a"), 10 * SECOND);
    b.add(line("b"), 10 * SECOND + SECOND / 2);

    assertThat(b.nanosUntilDue(10 * SECOND + SECOND / 2)).isEqualTo(SECOND / 2);
    assertThat(b.pollDue(11 * SECOND - 1)).isEmpty();
    assertThat(b.pollDue(11 * SECOND))
        .hasValueSatisfying(batch -> assertThat(batch.entries()).hasSize(2));
    assertThat(b.nanosUntilDue(11 * SECOND)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void intervalRestartsWithTheNextBatch() {
    Batcher b = new Batcher(1, 1_000_000, Duration.ofSeconds(1));
    b.add(line("a"), 0);
    b.add(line("b"), 0);

    Batcher c = new Batcher(10, 1_000_000, Duration.ofSeconds(1));
    c.add(line("a"), 0);
    c.pollDue(SECOND);
    c.add(line("b"), 5 * SECOND);

    assertThat(c.pollDue(5 * SECOND + SECOND / 2)).isEmpty();
    assertThat(c.pollDue(6 * SECOND)).isPresent();
  }
}
