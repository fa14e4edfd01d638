package io.sf2loki.cli.command;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.loki.DeadLetterRecords;
import io.sf2loki.loki.DeadLetterRecords.MalformedRecordException;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.pipeline.PipelineMetrics;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.PermanentSinkException;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Sink;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Pushes the entries of a dead-letter file through the configured sink again, in batches, with the
 * lanes' retry policy for a bounded number of attempts. Replaying twice is harmless: Loki drops an
 * entry identical to one it holds (same stream, timestamp and line). The sink applies its time
 * policies as the daemon does, so an entry now beyond Loki's window is placed by the late policy.
 */
final class DeadLetterReplay {

  /** What a replay did. */
  record Outcome(long replayed, long rejectedAgain, List<String> malformed, long linesRead) {}

  private final Sink sink;
  private final MeterRegistry registry;
  private final Backoff backoff;
  private final Sleeper sleeper;
  private final int attempts;
  private final int maxEntries;
  private final long maxBytes;
  private final Duration maxRetryAfter;

  DeadLetterReplay(
      Sink sink,
      MeterRegistry registry,
      Backoff backoff,
      Sleeper sleeper,
      int attempts,
      int maxEntries,
      long maxBytes,
      Duration maxRetryAfter) {
    this.sink = sink;
    this.registry = registry;
    this.backoff = backoff;
    this.sleeper = sleeper;
    this.attempts = attempts;
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.maxRetryAfter = maxRetryAfter;
  }

  /**
   * Replays {@code file}. A malformed line is skipped and reported by number (it stays in the
   * file).
   *
   * @throws CommandFailedException when the sink still fails after the attempts; entries before the
   *     failing batch were delivered, and a re-run is safe
   */
  Outcome replay(Path file) throws IOException, InterruptedException {
    List<String> malformed = new ArrayList<>();
    List<LogEntry> batch = new ArrayList<>();
    long batchBytes = 0;
    long replayed = 0;
    long lineNumber = 0;
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        LogEntry entry;
        try {
          entry = DeadLetterRecords.parse(line);
        } catch (MalformedRecordException e) {
          malformed.add("line " + lineNumber + ": " + e.getMessage());
          continue;
        }
        if (!batch.isEmpty()
            && (batch.size() >= maxEntries || batchBytes + entry.utf8Size() > maxBytes)) {
          replayed += push(batch, replayed);
          batch = new ArrayList<>();
          batchBytes = 0;
        }
        batch.add(entry);
        batchBytes += entry.utf8Size();
      }
    }
    if (!batch.isEmpty()) {
      replayed += push(batch, replayed);
    }
    long dropped = dropped();
    return new Outcome(replayed - dropped, dropped, malformed, lineNumber);
  }

  private int push(List<LogEntry> entries, long before) throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        sink.push(new Batch(entries));
        return entries.size();
      } catch (PermanentSinkException e) {
        // The sink counted the batch's entries as dropped and dead-lettered them.
        return entries.size();
      } catch (RetryableSinkException e) {
        if (attempt >= attempts) {
          throw new CommandFailedException(
              "the sink still fails after "
                  + attempts
                  + " attempts ("
                  + e.getMessage()
                  + "); "
                  + before
                  + " entries were handed over before it; fix the cause and run the replay again"
                  + " (Loki drops the duplicates of what it already holds)",
              e);
        }
        Duration wait = backoff.delay(attempt);
        if (e.retryAfter().isPresent()) {
          wait = Backoff.honouring(wait, e.retryAfter().get(), maxRetryAfter);
        }
        sleeper.sleep(wait);
      }
    }
  }

  private long dropped() {
    return Math.round(
        registry.find(PipelineMetrics.ENTRIES_DROPPED).counters().stream()
            .mapToDouble(c -> c.count())
            .sum());
  }
}
