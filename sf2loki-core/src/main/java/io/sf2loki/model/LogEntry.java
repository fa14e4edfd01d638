package io.sf2loki.model;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One Loki log line plus the checkpoint it advances once delivered.
 *
 * <p>Immutable and thread-safe. Labels and structured metadata are held as sorted {@link
 * StringMap}s so that two entries built from the same data are equal and serialise to identical
 * bytes (invariant 5). A {@code StringMap} argument is kept as is, not copied: sources build one
 * label set per stream and pass it with every entry.
 *
 * <p>A <em>checkpoint-only</em> entry carries a token but no line: it travels through the same lane
 * as real entries so that it never overtakes an undelivered entry on its key, and is never sent to
 * Loki (invariant 1).
 *
 * <p>A source reads in <em>units</em> that a resume reads again whole (a LogFile, a page of event
 * records): an entry that {@linkplain #endsUnit() ends one} carries a checkpoint that covers it and
 * everything its source emitted before it. The others carry none, or the position from before their
 * unit ({@link #withCheckpointBeforeItsUnit()}: committable once delivered, as the daemon does, but
 * a resume from it reads the entry again). A consumer that must not write an entry twice (Kafka
 * Connect's exactly-once transactions) ends its atomic writes only after an entry that ends a unit.
 *
 * <p>This is a final class rather than a record because it memoises its UTF-8 size, which the lanes
 * consult on every enqueue and batch decision.
 */
public final class LogEntry {

  /** Fixed per-entry overhead counted by {@link #utf8Size()}: timestamp and framing. */
  static final int ENTRY_OVERHEAD_BYTES = 16;

  private final long timestampNanos;
  private final StringMap labels;
  private final String line;
  private final StringMap metadata;
  private final Optional<CheckpointToken> checkpoint;
  private final boolean checkpointOnly;
  private final boolean checkpointBeforeUnit;
  private int utf8Size = -1; // racy single-check memo: any thread computes the same value
  private int lineUtf8Size = -1; // likewise

  private LogEntry(
      long timestampNanos,
      StringMap labels,
      String line,
      StringMap metadata,
      Optional<CheckpointToken> checkpoint,
      boolean checkpointOnly,
      boolean checkpointBeforeUnit) {
    this.timestampNanos = timestampNanos;
    this.labels = labels;
    this.line = Objects.requireNonNull(line, "line");
    this.metadata = metadata;
    this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    this.checkpointOnly = checkpointOnly;
    this.checkpointBeforeUnit = checkpointBeforeUnit;
  }

  /**
   * A real log line.
   *
   * @param timestampNanos event time, nanoseconds since the Unix epoch
   * @param labels stream labels (low cardinality, see invariant 5); pass one {@link StringMap} per
   *     stream to share it instead of copying
   * @param line the log line, canonical JSON for Salesforce records
   * @param metadata Loki structured metadata (kept as is when a {@link StringMap})
   * @param checkpoint the position that becomes committable once this entry is delivered
   */
  public static LogEntry of(
      long timestampNanos,
      Map<String, String> labels,
      String line,
      Map<String, String> metadata,
      Optional<CheckpointToken> checkpoint) {
    if (timestampNanos < 0) {
      throw new IllegalArgumentException("timestamp must not be negative: " + timestampNanos);
    }
    return new LogEntry(
        timestampNanos,
        StringMap.of(Objects.requireNonNull(labels, "labels")),
        line,
        StringMap.of(Objects.requireNonNull(metadata, "metadata")),
        checkpoint,
        false,
        false);
  }

  /** A marker that advances {@code token} after every earlier entry on its key was delivered. */
  public static LogEntry checkpointOnly(CheckpointToken token) {
    return new LogEntry(0, StringMap.EMPTY, "", StringMap.EMPTY, Optional.of(token), true, false);
  }

  /** Event time in nanoseconds since the Unix epoch; 0 for checkpoint-only entries. */
  public long timestampNanos() {
    return timestampNanos;
  }

  /** Stream labels, sorted by name, immutable. */
  public StringMap labels() {
    return labels;
  }

  /** The line as sent to Loki; empty for checkpoint-only entries. */
  public String line() {
    return line;
  }

  /** Structured metadata, sorted by name, immutable. */
  public StringMap metadata() {
    return metadata;
  }

  /** The checkpoint this entry advances when delivered, if any. */
  public Optional<CheckpointToken> checkpoint() {
    return checkpoint;
  }

  /** True when this entry only carries a checkpoint and must not be sent to Loki. */
  public boolean isCheckpointOnly() {
    return checkpointOnly;
  }

  /**
   * Approximate bytes this entry occupies on the wire before compression: the UTF-8 lengths of the
   * line, label and metadata names and values, plus a fixed overhead. Used for queue and batch byte
   * bounds, so it must be cheap after the first call.
   */
  public int utf8Size() {
    int size = utf8Size;
    if (size < 0) {
      long total = ENTRY_OVERHEAD_BYTES + lineUtf8Size();
      total += labels.utf8Size() + metadata.utf8Size();
      size = (int) Math.min(Integer.MAX_VALUE, total);
      utf8Size = size;
    }
    return size;
  }

  /**
   * UTF-8 byte length of the line, computed once (the lanes' batch byte bound and the sink consult
   * it for every entry).
   */
  public int lineUtf8Size() {
    int size = lineUtf8Size;
    if (size < 0) {
      size = Utf8Length.of(line);
      lineUtf8Size = size;
    }
    return size;
  }

  /** A copy of this entry with another line, for truncation and transforms. */
  public LogEntry withLine(String newLine) {
    return new LogEntry(
        timestampNanos,
        labels,
        newLine,
        metadata,
        checkpoint,
        checkpointOnly,
        checkpointBeforeUnit);
  }

  /**
   * A copy of this entry whose checkpoint is the position from before its unit (an EventLogFile row
   * other than its file's last, salesforce-api.md §7.4): delivering the entry still makes it
   * committable, but it does not {@linkplain #endsUnit() end its unit}.
   *
   * @throws IllegalStateException for a checkpoint-only entry or one without a checkpoint
   */
  public LogEntry withCheckpointBeforeItsUnit() {
    if (checkpointOnly || checkpoint.isEmpty()) {
      throw new IllegalStateException(
          "only a line with a checkpoint can carry one before its unit");
    }
    return new LogEntry(timestampNanos, labels, line, metadata, checkpoint, false, true);
  }

  /**
   * True when a resume from this entry's checkpoint reads nothing its source emitted up to and
   * including this entry again: the entry carries a checkpoint, and not one from before its unit.
   */
  public boolean endsUnit() {
    return checkpoint.isPresent() && !checkpointBeforeUnit;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LogEntry other
        && timestampNanos == other.timestampNanos
        && checkpointOnly == other.checkpointOnly
        && checkpointBeforeUnit == other.checkpointBeforeUnit
        && line.equals(other.line)
        && labels.equals(other.labels)
        && metadata.equals(other.metadata)
        && checkpoint.equals(other.checkpoint);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        timestampNanos, labels, line, metadata, checkpoint, checkpointOnly, checkpointBeforeUnit);
  }

  @Override
  public String toString() {
    return checkpointOnly
        ? "LogEntry[checkpointOnly " + checkpoint.orElseThrow() + "]"
        : "LogEntry[ts=" + timestampNanos + ", labels=" + labels + ", bytes=" + utf8Size() + "]";
  }
}
