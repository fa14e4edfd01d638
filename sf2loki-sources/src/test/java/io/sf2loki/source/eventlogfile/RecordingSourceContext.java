package io.sf2loki.source.eventlogfile;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Captures what a source emits. {@link #deliverAll()} plays the pipeline: it commits, per key, the
 * token of the last entry. A stop can be requested after a number of real entries, and {@link
 * #awaitStop} ends the run after a number of cycles.
 */
final class RecordingSourceContext implements SourceContext {

  private final List<LogEntry> entries = new CopyOnWriteArrayList<>();
  private final Map<String, String> committed = new HashMap<>();
  private final List<Duration> waits = new CopyOnWriteArrayList<>();
  private volatile boolean stop;
  private volatile long stopAfterRows = Long.MAX_VALUE;
  private volatile int cyclesLeft = 1;
  private volatile boolean keep = true;
  private volatile Consumer<LogEntry> onEmit = e -> {};
  private long rows;
  private final AtomicInteger abandoned = new AtomicInteger();

  RecordingSourceContext committed(String key, String value) {
    committed.put(key, value);
    return this;
  }

  RecordingSourceContext stopAfterRows(long n) {
    this.stopAfterRows = n;
    return this;
  }

  RecordingSourceContext cycles(int n) {
    this.cyclesLeft = n;
    return this;
  }

  /** Count rows without keeping them (large-file tests). */
  RecordingSourceContext discardEntries() {
    this.keep = false;
    return this;
  }

  RecordingSourceContext onEmit(Consumer<LogEntry> hook) {
    this.onEmit = hook;
    return this;
  }

  /** How many units the source gave up before their end ({@link #abandonUnit}). */
  int unitsAbandoned() {
    return abandoned.get();
  }

  @Override
  public void abandonUnit() {
    abandoned.incrementAndGet();
  }

  @Override
  public synchronized void emit(LogEntry entry) {
    onEmit.accept(entry);
    if (keep || entry.isCheckpointOnly()) {
      entries.add(entry);
    }
    if (!entry.isCheckpointOnly() && ++rows >= stopAfterRows) {
      stop = true;
    }
  }

  @Override
  public synchronized Optional<String> checkpoint(String key) {
    return Optional.ofNullable(committed.get(key));
  }

  @Override
  public boolean stopRequested() {
    return stop;
  }

  @Override
  public boolean awaitStop(Duration timeout) {
    waits.add(timeout);
    if (--cyclesLeft <= 0) {
      stop = true;
    }
    return stop;
  }

  /** Commits the last token per key of everything emitted, as the pipeline would after pushes. */
  synchronized Map<String, String> deliverAll() {
    for (LogEntry e : entries) {
      e.checkpoint().ifPresent(t -> committed.put(t.key(), t.value()));
    }
    return Map.copyOf(committed);
  }

  synchronized long rowCount() {
    return rows;
  }

  List<LogEntry> entries() {
    return List.copyOf(entries);
  }

  List<LogEntry> rows() {
    return entries.stream().filter(e -> !e.isCheckpointOnly()).toList();
  }

  List<LogEntry> rowsOf(String type) {
    return rows().stream().filter(e -> type.equals(e.labels().get("event_type"))).toList();
  }

  /** The lines of {@code type}'s rows, in emit order. */
  List<String> linesOf(String type) {
    return rowsOf(type).stream().map(LogEntry::line).toList();
  }

  List<CheckpointToken> checkpointOnlyTokens() {
    List<CheckpointToken> out = new ArrayList<>();
    for (LogEntry e : entries) {
      if (e.isCheckpointOnly()) {
        out.add(e.checkpoint().orElseThrow());
      }
    }
    return out;
  }

  List<Duration> waits() {
    return List.copyOf(waits);
  }
}
