package io.sf2loki.testkit.loki;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The entries the fake accepted, in arrival order, and Loki's identical-entry dedup per stream.
 *
 * <p>Stored as columns in fixed-size chunks (the stream and the decoded entry per slot), with no
 * object per entry beyond the {@link DecodedEntry} itself. Dedup needs no composite key: each
 * stream maps a timestamp to the newest slot with that timestamp, and slots with equal timestamps
 * in a stream are chained, so only entries with the same timestamp have their lines compared. Not
 * thread-safe: the {@link Ingester} calls it under its lock.
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

  private final List<Stream[]> streams = new ArrayList<>();
  private final List<DecodedEntry[]> entries = new ArrayList<>();
  private final List<int[]> sameTimestamp = new ArrayList<>(); // previous slot, or -1
  private int size;

  int size() {
    return size;
  }

  /**
   * Stores {@code e} in {@code stream} unless an identical entry is there; false for a duplicate.
   */
  boolean add(Stream stream, DecodedEntry e) {
    int head = stream.byTimestamp.get(e.timestampNanos());
    for (int slot = head; slot >= 0; slot = sameTimestamp.get(slot / CHUNK)[slot % CHUNK]) {
      if (entries.get(slot / CHUNK)[slot % CHUNK].sameLine(e)) {
        return false;
      }
    }
    if (size % CHUNK == 0) {
      streams.add(new Stream[CHUNK]);
      entries.add(new DecodedEntry[CHUNK]);
      sameTimestamp.add(new int[CHUNK]);
    }
    int slot = size++;
    streams.get(slot / CHUNK)[slot % CHUNK] = stream;
    entries.get(slot / CHUNK)[slot % CHUNK] = e;
    sameTimestamp.get(slot / CHUNK)[slot % CHUNK] = head;
    stream.byTimestamp.put(e.timestampNanos(), slot);
    return true;
  }

  /** Every stored entry as {@link AcceptedEntry}, in arrival order. */
  List<AcceptedEntry> accepted() {
    List<AcceptedEntry> out = new ArrayList<>(size);
    for (int slot = 0; slot < size; slot++) {
      Stream s = streams.get(slot / CHUNK)[slot % CHUNK];
      DecodedEntry e = entries.get(slot / CHUNK)[slot % CHUNK];
      out.add(new AcceptedEntry(s.labels, e.timestampNanos(), e.line(), e.metadata()));
    }
    return out;
  }

  void clear() {
    streams.clear();
    entries.clear();
    sameTimestamp.clear();
    size = 0;
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
