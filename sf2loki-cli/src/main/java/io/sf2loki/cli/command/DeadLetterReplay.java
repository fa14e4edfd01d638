package io.sf2loki.cli.command;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.loki.DeadLetterRecords;
import io.sf2loki.loki.DeadLetterRecords.MalformedRecordException;
import io.sf2loki.loki.ReplayJournal;
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
 * lanes' retry policy for a bounded number of attempts. The sink applies its time policies as the
 * daemon does, so an entry now beyond Loki's window is placed by the late policy.
 *
 * <p>Replaying again is harmless, whenever and however the previous run ended: the file's {@link
 * ReplayJournal} records where each record is pushed before the push and which records Loki stored.
 * A stored record is skipped; one pushed but not known stored is pushed exactly as before, so Loki
 * drops the copy (it drops only an entry identical in stream, timestamp and line, and a re-stamped
 * timestamp would otherwise move with the clock).
 */
final class DeadLetterReplay {

  /**
   * What a replay did.
   *
   * @param skipped records an earlier run stored, not pushed again
   * @param unconfirmed records not pushed because Loki now refuses where an earlier, unfinished run
   *     pushed them, and that push may have stored them
   */
  record Outcome(
      long replayed,
      long rejectedAgain,
      long skipped,
      long unconfirmed,
      List<String> malformed,
      long linesRead) {}

  private final Sink sink;
  private final ReplayJournal journal;
  private final MeterRegistry registry;
  private final Backoff backoff;
  private final Sleeper sleeper;
  private final int attempts;
  private final int maxEntries;
  private final long maxBytes;
  private final Duration maxRetryAfter;

  /**
   * @param sink a sink that records its pushes in {@code journal}
   */
  DeadLetterReplay(
      Sink sink,
      ReplayJournal journal,
      MeterRegistry registry,
      Backoff backoff,
      Sleeper sleeper,
      int attempts,
      int maxEntries,
      long maxBytes,
      Duration maxRetryAfter) {
    this.sink = sink;
    this.journal = journal;
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
   * @throws CommandFailedException when the sink still fails after the attempts, or the journal
   *     cannot be written; entries before were delivered, and a re-run is safe
   */
  Outcome replay(Path file) throws IOException, InterruptedException {
    List<String> malformed = new ArrayList<>();
    List<LogEntry> batch = new ArrayList<>();
    long batchBytes = 0;
    long replayed = 0;
    long skipped = 0;
    long lineNumber = 0;
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        LogEntry entry;
        try {
          entry = journal.track(DeadLetterRecords.parse(line));
        } catch (MalformedRecordException e) {
          malformed.add("line " + lineNumber + ": " + e.getMessage());
          continue;
        }
        if (journal.isStored(entry)) {
          skipped++;
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
    failIfJournalFailed(replayed);
    long dropped = dropped();
    long unconfirmed = journal.unconfirmedCount();
    return new Outcome(
        replayed - dropped - unconfirmed, dropped, skipped, unconfirmed, malformed, lineNumber);
  }

  private int push(List<LogEntry> entries, long before) throws InterruptedException {
    Batch batch = new Batch(entries);
    for (int attempt = 1; ; attempt++) {
      try {
        sink.push(batch);
        return entries.size();
      } catch (PermanentSinkException e) {
        // The sink counted the batch's entries as dropped and dead-lettered them.
        return entries.size();
      } catch (RetryableSinkException e) {
        failIfJournalFailed(before); // retrying cannot help, and must not push unrecorded
        if (attempt >= attempts) {
          throw new CommandFailedException(
              "the sink still fails after "
                  + attempts
                  + " attempts ("
                  + e.getMessage()
                  + "); "
                  + before
                  + " entries were handed over before it; fix the cause and run the replay again"
                  + " (what was pushed is pushed exactly as before, and Loki drops the copies)",
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

  private void failIfJournalFailed(long before) {
    if (journal.failure().isPresent()) {
      throw new CommandFailedException(
          "cannot write the replay journal "
              + journal.path()
              + " ("
              + journal.failure().get().getMessage()
              + "); "
              + before
              + " entries were handed over before it; fix the cause and run the replay again"
              + " (what was pushed is pushed exactly as before, and Loki drops the copies)",
          journal.failure().get());
    }
  }

  private long dropped() {
    return Math.round(
        registry.find(PipelineMetrics.ENTRIES_DROPPED).counters().stream()
            .mapToDouble(c -> c.count())
            .sum());
  }
}
