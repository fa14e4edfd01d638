package io.sf2loki.loki;

import io.sf2loki.files.DurableFiles;
import io.sf2loki.loki.JournalLines.Moved;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The replay journal of a dead-letter file, {@code <file>.replay}: where {@code deadletter replay}
 * pushed each record, and which records Loki stored. It is the {@link PlacementLedger} that makes a
 * replay idempotent: a record Loki stored is skipped by later runs; a record pushed but not known
 * stored (the run crashed, or Loki's answer was lost) is pushed again exactly where it went, so
 * Loki drops the copy; and it is never placed anywhere else while a push of it may have landed.
 *
 * <p>JSON lines, appended and fsynced, created 0600 (they hold labels and structured metadata,
 * never a line), the last line about a record winning:
 *
 * <ul>
 *   <li>{@code {"pushing":R,"time":T}}: about to be pushed as it is in the file;
 *   <li>{@code {"pushing":R,"time":T,"labels":{..},"timestamp":"ns","structured_metadata":{..},
 *       "reason":"greater_than_max_sample_age","action":"retimestamped"}}: about to be pushed as
 *       the sink placed it;
 *   <li>{@code {"released":R,"time":T}}: Loki refused that placement, and every push of it was
 *       answered, so none stored it: it is placed afresh;
 *   <li>{@code {"stored":R,"time":T}}: Loki accepted a push of it.
 * </ul>
 *
 * <p>{@code R} is the record's identity: the SHA-256 of its labels, timestamp, line and structured
 * metadata as in the file ({@link #track}); identical records are one record, as they are one entry
 * to Loki. A {@code pushing} line is fsynced before the push it announces, a {@code stored} line
 * after Loki's answer; a line cut short by a crash is removed on open (its push was never made, or
 * its mark is made again). The journal is locked while open: one replay of a file at a time. The
 * daemon's rotation moves it with its file ({@link DeadLetterFile}). Thread-safe.
 */
public final class ReplayJournal implements PlacementLedger, AutoCloseable {

  /** The checkpoint key under which {@link #track} stamps a record's identity on its entry. */
  static final String RECORD = "deadletter_record";

  private final Path path;
  private final Clock clock;
  private final FileChannel channel;
  private final FileLock lock;
  private final Map<String, Optional<Moved>> pins = new HashMap<>();
  private final Set<String> uncertain = new HashSet<>(); // pins a push may have stored
  private final Set<String> stored = new HashSet<>();
  private final Set<String> unconfirmed = new HashSet<>();
  private final List<String> released = new ArrayList<>(); // not yet written
  private IOException failure;

  private ReplayJournal(Path path, Clock clock, FileChannel channel, FileLock lock) {
    this.path = path;
    this.clock = clock;
    this.channel = channel;
    this.lock = lock;
  }

  /** Why a journal cannot be read: a line is not one this class writes. */
  public static final class CorruptJournalException extends IOException {
    private static final long serialVersionUID = 1L;

    CorruptJournalException(String message) {
      super(message);
    }
  }

  /** The journal of {@code deadLetterFile}: {@code <deadLetterFile>.replay}. */
  public static Path pathFor(Path deadLetterFile) {
    return deadLetterFile.resolveSibling(deadLetterFile.getFileName() + ".replay");
  }

  /**
   * Opens (creating) and locks the journal of {@code deadLetterFile}.
   *
   * @param clock stamps the lines' {@code time}
   * @throws CorruptJournalException when a line other than a cut-short last one is unreadable
   * @throws IOException when it cannot be read or created, or another replay holds it
   */
  public static ReplayJournal open(Path deadLetterFile, Clock clock) throws IOException {
    Path path = pathFor(deadLetterFile);
    boolean existed = Files.exists(path);
    FileChannel channel =
        FileChannel.open(
            path,
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
            DeadLetterFile.ownerOnly());
    try {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        throw new IOException(
            "replay journal " + path + " is locked: another replay of " + deadLetterFile + " runs");
      }
      if (!existed) {
        DurableFiles.syncDirectory(DurableFiles.directoryOf(path));
      }
      ReplayJournal journal = new ReplayJournal(path, clock, channel, lock);
      journal.load();
      return journal;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The journal's path. */
  public Path path() {
    return path;
  }

  /**
   * {@code record} (an entry read from the dead-letter file) carrying its identity, as its
   * checkpoint: a replayed entry has no source position, and the checkpoint is what the sink keeps
   * on an entry through shaping and placement.
   */
  public LogEntry track(LogEntry record) {
    CheckpointToken identity = new CheckpointToken(RECORD, JournalLines.identity(record));
    return LogEntry.of(
        record.timestampNanos(),
        record.labels(),
        record.line(),
        record.metadata(),
        Optional.of(identity));
  }

  /** Whether Loki accepted a push of {@code record} (as {@link #track}ed). */
  public synchronized boolean isStored(LogEntry record) {
    String key = key(record);
    return key != null && stored.contains(key);
  }

  /** How many records this run did not push because their pin may be stored and Loki refuses it. */
  public synchronized int unconfirmedCount() {
    return unconfirmed.size();
  }

  /**
   * The first failure to write the journal, if any: nothing more is pushed, and the records pushed
   * but not marked stored are pushed again, as they were, by the next run.
   */
  public synchronized Optional<IOException> failure() {
    return Optional.ofNullable(failure);
  }

  @Override
  public synchronized Optional<Pin> pin(LogEntry original) {
    String key = key(original);
    Optional<Moved> moved = key == null ? null : pins.get(key);
    if (moved == null) {
      return Optional.empty();
    }
    return Optional.of(new Pin(original, moved.map(m -> m.placement(original))));
  }

  @Override
  public synchronized boolean release(LogEntry original) {
    String key = key(original);
    if (key == null || !pins.containsKey(key)) {
      return true;
    }
    if (uncertain.contains(key)) {
      return false;
    }
    pins.remove(key);
    released.add(key);
    return true;
  }

  @Override
  public synchronized void placing(List<Pin> placing) throws IOException {
    if (failure != null) {
      throw new IOException("replay journal " + path + " failed earlier: " + failure.getMessage());
    }
    Map<String, Optional<Moved>> changed = new HashMap<>();
    StringBuilder lines = new StringBuilder();
    for (Pin p : placing) {
      String key = key(p.original());
      if (key == null) {
        continue;
      }
      Optional<Moved> moved = p.moved().map(Moved::of);
      if (!moved.equals(pins.get(key)) && changed.put(key, moved) == null) {
        lines.append(JournalLines.pushing(key, moved, clock.instant())).append('\n');
      }
    }
    for (String key : released) {
      if (!changed.containsKey(key)) {
        lines.append(JournalLines.released(key, clock.instant())).append('\n');
      }
    }
    if (lines.isEmpty()) {
      return;
    }
    try {
      append(lines);
    } catch (IOException e) {
      failure = e;
      throw e;
    }
    released.clear();
    pins.putAll(changed);
  }

  @Override
  public synchronized void unanswered(List<LogEntry> originals) {
    for (LogEntry e : originals) {
      String key = key(e);
      if (key != null) {
        uncertain.add(key);
      }
    }
  }

  @Override
  public synchronized void stored(List<LogEntry> originals) {
    StringBuilder lines = new StringBuilder();
    for (LogEntry e : originals) {
      String key = key(e);
      if (key != null && stored.add(key)) {
        lines.append(JournalLines.stored(key, clock.instant())).append('\n');
      }
    }
    if (lines.isEmpty() || failure != null) {
      return;
    }
    try {
      append(lines);
    } catch (IOException e) {
      failure = e;
    }
  }

  @Override
  public synchronized void unconfirmed(LogEntry original) {
    String key = key(original);
    if (key != null) {
      unconfirmed.add(key);
    }
  }

  /** Writes what is pending and releases the journal. Idempotent. */
  @Override
  public synchronized void close() throws IOException {
    if (!channel.isOpen()) {
      return;
    }
    try {
      if (!released.isEmpty() && failure == null) {
        StringBuilder lines = new StringBuilder();
        released.forEach(
            key -> lines.append(JournalLines.released(key, clock.instant())).append('\n'));
        append(lines);
        released.clear();
      }
    } finally {
      try {
        lock.release();
      } finally {
        channel.close();
      }
    }
  }

  private void append(CharSequence lines) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
    channel.position(channel.size());
    while (buf.hasRemaining()) {
      channel.write(buf);
    }
    channel.force(false);
  }

  /** Reads every line; a last line cut short by a crash is cut off the file. */
  private void load() throws IOException {
    byte[] bytes = Files.readAllBytes(path);
    int end = bytes.length;
    while (end > 0 && bytes[end - 1] != '\n') {
      end--;
    }
    if (end < bytes.length) {
      channel.truncate(end);
      channel.force(false);
    }
    String text = new String(bytes, 0, end, StandardCharsets.UTF_8);
    int lineNumber = 0;
    for (String line : text.split("\n", -1)) {
      lineNumber++;
      if (!line.isBlank()) {
        read(line, lineNumber);
      }
    }
    uncertain.addAll(pins.keySet()); // pushed by an earlier run: any of them may have landed
  }

  private void read(String text, int lineNumber) throws CorruptJournalException {
    JournalLines.Line line;
    try {
      line = JournalLines.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CorruptJournalException(
          "replay journal "
              + path
              + " line "
              + lineNumber
              + " is not a journal line ("
              + e.getMessage()
              + "); it records where earlier replays pushed each record, so repair it (or,"
              + " accepting that records it pinned may be stored twice, move it aside) and run the"
              + " replay again");
    }
    if (line instanceof JournalLines.Pushing p) {
      pins.put(p.record(), p.moved());
    } else if (line instanceof JournalLines.Stored st) {
      stored.add(st.record());
    } else if (line instanceof JournalLines.Released r) {
      pins.remove(r.record());
    }
  }

  /** The identity {@link #track} stamped on {@code e}, or null for an entry not tracked. */
  private static String key(LogEntry e) {
    Optional<CheckpointToken> t = e.checkpoint();
    return t.isPresent() && t.get().key().equals(RECORD) ? t.get().value() : null;
  }
}
