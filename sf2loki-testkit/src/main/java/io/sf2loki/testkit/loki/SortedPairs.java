package io.sf2loki.testkit.loki;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable string map sorted by key, stored as one array of alternating keys and values: the
 * fake keeps one per stored entry for its structured metadata, so it must be small. A {@link Map}
 * in every observable respect (equality, hash code, {@code toString} as a {@code TreeMap} prints
 * it); mutators throw {@link UnsupportedOperationException}.
 */
final class SortedPairs extends AbstractMap<String, String> {

  static final SortedPairs EMPTY = new SortedPairs(new String[0]);

  private final String[] kv;

  private SortedPairs(String[] kv) {
    this.kv = kv;
  }

  /** {@code source} itself when it is a {@code SortedPairs}, else a sorted copy. */
  static SortedPairs copyOf(Map<String, String> source) {
    if (source instanceof SortedPairs p) {
      return p;
    }
    if (source.isEmpty()) {
      return EMPTY;
    }
    String[] kv = new String[source.size() * 2];
    int i = 0;
    for (Map.Entry<String, String> e : source.entrySet()) {
      kv[i++] = Objects.requireNonNull(e.getKey(), "key");
      kv[i++] = Objects.requireNonNull(e.getValue(), "value");
    }
    return sorted(kv, kv.length);
  }

  /**
   * Takes the first {@code length} slots of {@code kv} (alternating keys and values, no null) and
   * sorts them by key; a repeated key keeps its last value, as a map built by {@code put} would.
   */
  static SortedPairs sorted(String[] kv, int length) {
    if (length == 0) {
      return EMPTY;
    }
    String[] out = new String[length];
    int n = 0;
    for (int i = 0; i < length; i += 2) {
      String k = kv[i];
      int j = n - 2;
      while (j >= 0 && out[j].compareTo(k) > 0) {
        j -= 2;
      }
      if (j >= 0 && out[j].equals(k)) {
        out[j + 1] = kv[i + 1];
        continue;
      }
      System.arraycopy(out, j + 2, out, j + 4, n - (j + 2));
      out[j + 2] = k;
      out[j + 3] = kv[i + 1];
      n += 2;
    }
    return new SortedPairs(n == length ? out : java.util.Arrays.copyOf(out, n));
  }

  @Override
  public int size() {
    return kv.length >> 1;
  }

  @Override
  public String get(Object key) {
    for (int i = 0; i < kv.length; i += 2) {
      if (kv[i].equals(key)) {
        return kv[i + 1];
      }
    }
    return null;
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super String> action) {
    for (int i = 0; i < kv.length; i += 2) {
      action.accept(kv[i], kv[i + 1]);
    }
  }

  @Override
  public Set<Map.Entry<String, String>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return SortedPairs.this.size();
      }

      @Override
      public Iterator<Map.Entry<String, String>> iterator() {
        return new Iterator<>() {
          private int i;

          @Override
          public boolean hasNext() {
            return i < kv.length;
          }

          @Override
          public Map.Entry<String, String> next() {
            if (i >= kv.length) {
              throw new NoSuchElementException();
            }
            Map.Entry<String, String> e = new SimpleImmutableEntry<>(kv[i], kv[i + 1]);
            i += 2;
            return e;
          }
        };
      }
    };
  }
}
