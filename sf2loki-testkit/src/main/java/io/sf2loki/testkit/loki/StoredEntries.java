package io.sf2loki.testkit.loki;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The entries the fake accepted, in arrival order, and Loki's identical-entry dedup per stream.
 *
 * <p>Stored as columns in fixed-size chunks (stream, timestamp, and the arena addresses and lengths
 * of the line and of the packed metadata), with no object per entry: a million stored entries are a
 * few dozen arrays, which the garbage collector neither copies nor traces entry by entry. Dedup
 * needs no composite key: each stream maps a timestamp to the newest slot with that timestamp, and
 * slots with equal timestamps in a stream are chained, so only entries with the same timestamp have
 * their lines compared. Not thread-safe: the {@link Ingester} calls it under its lock.
 */
final class StoredEntries {

  private static final int CHUNK = 1 << 14;

  /** One stream's labels (an immutable map shared by all its entries) and its dedup index. */
  static final class Stream {
    final Map<String, String> labels;
    long newest = Long.MIN_VALUE;
    private final TimestampIndex byTimestamp = new TimestampIndex();

    Stream(Map<String, String> labels) {
      this.labels = Map.copyOf(labels);
    }
  }

  /** One chunk of slots, column by column. */
  private static final class Columns {
    final Stream[] stream = new Stream[CHUNK];
    final long[] timestamp = new long[CHUNK];
    final long[] line = new long[CHUNK]; // arena address
    final int[] lineLength = new int[CHUNK];
    final long[] metadata = new long[CHUNK]; // arena address of the packed pairs
    final int[] metadataLength = new int[CHUNK];
    final int[] sameTimestamp =
        new int[CHUNK]; // previous slot with this stream and timestamp, or -1
  }

  private final LineArena arena;
  private final List<Columns> chunks = new ArrayList<>();
  private int size;

  StoredEntries(LineArena arena) {
    this.arena = arena;
  }

  int size() {
    return size;
  }

  /**
   * Stores an entry whose line is {@code utf8[offset, offset + length)} in {@code stream} unless an
   * identical one (same timestamp and line) is there; returns its slot, or -1 for a duplicate.
   */
  int add(
      Stream stream,
      long timestampNanos,
      byte[] utf8,
      int offset,
      int length,
      byte[] packedMetadata) {
    int head = stream.byTimestamp.get(timestampNanos);
    for (int slot = head; slot >= 0; slot = columns(slot).sameTimestamp[slot % CHUNK]) {
      Columns c = columns(slot);
      int i = slot % CHUNK;
      if (arena.equals(c.line[i], c.lineLength[i], utf8, offset, length)) {
        return -1;
      }
    }
    if (size % CHUNK == 0) {
      chunks.add(new Columns());
    }
    int slot = size++;
    Columns c = columns(slot);
    int i = slot % CHUNK;
    c.stream[i] = stream;
    c.timestamp[i] = timestampNanos;
    c.line[i] = arena.append(utf8, offset, length);
    c.lineLength[i] = length;
    c.metadata[i] = arena.append(packedMetadata, 0, packedMetadata.length);
    c.metadataLength[i] = packedMetadata.length;
    c.sameTimestamp[i] = head;
    stream.byTimestamp.put(timestampNanos, slot);
    return slot;
  }

  /** The stored entry in {@code slot} as decoded (its line bytes in the arena, not copied). */
  DecodedEntry entry(int slot) {
    Columns c = columns(slot);
    int i = slot % CHUNK;
    return new DecodedEntry(
        c.timestamp[i],
        arena.array(c.line[i]),
        LineArena.offset(c.line[i]),
        c.lineLength[i],
        metadata(c, i));
  }

  /** Every stored entry as {@link AcceptedEntry}, in arrival order. */
  List<AcceptedEntry> accepted() {
    List<AcceptedEntry> out = new ArrayList<>(size);
    for (int slot = 0; slot < size; slot++) {
      Columns c = columns(slot);
      int i = slot % CHUNK;
      out.add(
          new AcceptedEntry(
              c.stream[i].labels,
              c.timestamp[i],
              arena.string(c.line[i], c.lineLength[i]),
              metadata(c, i)));
    }
    return out;
  }

  void clear() {
    chunks.clear();
    size = 0;
  }

  private Columns columns(int slot) {
    return chunks.get(slot / CHUNK);
  }

  private SortedPairs metadata(Columns c, int i) {
    long at = c.metadata[i];
    return PackedPairs.unpack(arena.array(at), LineArena.offset(at), c.metadataLength[i]);
  }

  /**
   * A stream's map from a timestamp to its newest slot. Lines mostly arrive in timestamp order, so
   * the keys go into a sorted column by appending, and a newer timestamp than every stored one is
   * answered with one comparison; an older, unseen timestamp goes to a hash map on the side.
   */
  private static final class TimestampIndex {
    private long[] keys = new long[16];
    private int[] slots = new int[16];
    private int sorted;
    private final LongIntMap older = new LongIntMap();

    int get(long key) {
      if (sorted == 0 || key > keys[sorted - 1]) {
        return -1; // every key on the side is below the largest sorted one
      }
      int i = Arrays.binarySearch(keys, 0, sorted, key);
      return i >= 0 ? slots[i] : older.get(key);
    }

    void put(long key, int slot) {
      if (sorted == 0 || key > keys[sorted - 1]) {
        if (sorted == keys.length) {
          keys = Arrays.copyOf(keys, sorted * 2);
          slots = Arrays.copyOf(slots, sorted * 2);
        }
        keys[sorted] = key;
        slots[sorted++] = slot;
        return;
      }
      int i = Arrays.binarySearch(keys, 0, sorted, key);
      if (i >= 0) {
        slots[i] = slot;
      } else {
        older.put(key, slot);
      }
    }
  }

  /** An open-addressing map from a long to a non-negative int, with no boxing. */
  private static final class LongIntMap {
    private long[] keys = new long[16];
    private int[] values = new int[16]; // value + 1; 0 = empty
    private int count;

    int get(long key) {
      int mask = keys.length - 1;
      for (int i = hash(key) & mask; values[i] != 0; i = (i + 1) & mask) {
        if (keys[i] == key) {
          return values[i] - 1;
        }
      }
      return -1;
    }

    void put(long key, int value) {
      if ((count + 1) * 2 > keys.length) {
        grow();
      }
      int mask = keys.length - 1;
      int i = hash(key) & mask;
      while (values[i] != 0 && keys[i] != key) {
        i = (i + 1) & mask;
      }
      if (values[i] == 0) {
        count++;
      }
      keys[i] = key;
      values[i] = value + 1;
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldValues = values;
      keys = new long[oldKeys.length * 2];
      values = new int[oldKeys.length * 2];
      count = 0;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldValues[i] != 0) {
          put(oldKeys[i], oldValues[i] - 1);
        }
      }
    }

    private static int hash(long key) {
      long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }
  }
}
