package io.sf2loki.model;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.BiConsumer;

/**
 * An immutable map of strings to strings, sorted by key ({@link String#compareTo}), stored as one
 * array of alternating keys and values. This is how {@link LogEntry} holds stream labels and
 * structured metadata.
 *
 * <p>Label sets are few and shared: a source builds one {@code StringMap} per stream and passes the
 * same instance with every entry; {@link #of(Map)} then returns that instance instead of a copy,
 * and the hash code is computed once, so grouping entries by label set costs a field read and an
 * identity check. Structured metadata differs per entry; one small array is still much cheaper to
 * build, walk and keep than a {@code TreeMap}.
 *
 * <p>It is a {@link Map} in every respect a caller can observe: iteration in key order, {@code
 * equals}/{@code hashCode}/{@code toString} as for any map with the same pairs (a {@code TreeMap}
 * prints the same), and every mutator throws {@link UnsupportedOperationException}. Keys and values
 * are never null. Thread-safe.
 */
public final class StringMap extends AbstractMap<String, String> {

  /** The empty map. */
  public static final StringMap EMPTY = new StringMap(new String[0]);

  private final String[] kv; // k0, v0, k1, v1, ... sorted by key, no duplicate keys
  private int hash; // racy single-check memo, like String.hash
  private boolean hashIsZero;
  private int utf8Size = -1; // likewise
  private Set<Map.Entry<String, String>> entrySet;

  private StringMap(String[] kv) {
    this.kv = kv;
  }

  /**
   * The pairs of {@code source}, sorted by key: {@code source} itself when it already is a {@code
   * StringMap} (it is immutable, so sharing it is safe), otherwise a copy.
   *
   * @throws NullPointerException when {@code source}, a key or a value is null
   */
  public static StringMap of(Map<String, String> source) {
    if (source instanceof StringMap s) {
      return s;
    }
    Objects.requireNonNull(source, "map");
    if (source.isEmpty()) {
      return EMPTY;
    }
    String[] kv = new String[source.size() * 2];
    int[] i = {0};
    source.forEach(
        (k, v) -> {
          kv[i[0]++] = Objects.requireNonNull(k, "key");
          kv[i[0]++] = Objects.requireNonNull(v, () -> "value for " + k);
        });
    if (!(source instanceof SortedMap<String, String> sorted && sorted.comparator() == null)) {
      sortPairs(kv);
    }
    return new StringMap(kv);
  }

  /**
   * A map of the given pairs, e.g. {@code StringMap.of("job", "sf2loki", "source", "apexlog")}.
   *
   * @throws IllegalArgumentException for an odd number of arguments or a repeated key
   * @throws NullPointerException for a null key or value
   */
  public static StringMap of(String... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must come in pairs");
    }
    if (keysAndValues.length == 0) {
      return EMPTY;
    }
    String[] kv = keysAndValues.clone();
    for (int i = 0; i < kv.length; i++) {
      Objects.requireNonNull(kv[i], i % 2 == 0 ? "key" : "value");
    }
    sortPairs(kv);
    for (int i = 2; i < kv.length; i += 2) {
      if (kv[i].equals(kv[i - 2])) {
        throw new IllegalArgumentException("duplicate key " + kv[i]);
      }
    }
    return new StringMap(kv);
  }

  /** Insertion sort of the pairs by key: label sets and metadata are small. */
  private static void sortPairs(String[] kv) {
    for (int i = 2; i < kv.length; i += 2) {
      String k = kv[i];
      String v = kv[i + 1];
      int j = i - 2;
      while (j >= 0 && kv[j].compareTo(k) > 0) {
        kv[j + 2] = kv[j];
        kv[j + 3] = kv[j + 1];
        j -= 2;
      }
      kv[j + 2] = k;
      kv[j + 3] = v;
    }
  }

  @Override
  public int size() {
    return kv.length >> 1;
  }

  @Override
  public boolean isEmpty() {
    return kv.length == 0;
  }

  /** The {@code i}-th key in sorted order, {@code 0 <= i < size()}. */
  public String keyAt(int i) {
    return kv[Objects.checkIndex(i, size()) << 1];
  }

  /** The value of the {@code i}-th key in sorted order. */
  public String valueAt(int i) {
    return kv[(Objects.checkIndex(i, size()) << 1) + 1];
  }

  private int indexOf(Object key) {
    if (!(key instanceof String k)) {
      return -1;
    }
    int lo = 0;
    int hi = size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = kv[mid << 1].compareTo(k);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  @Override
  public String get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : kv[(i << 1) + 1];
  }

  @Override
  public String getOrDefault(Object key, String defaultValue) {
    int i = indexOf(key);
    return i < 0 ? defaultValue : kv[(i << 1) + 1];
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super String> action) {
    for (int i = 0; i < kv.length; i += 2) {
      action.accept(kv[i], kv[i + 1]);
    }
  }

  /** Σ UTF-8 bytes of every key and value, computed once. */
  public int utf8Size() {
    int size = utf8Size;
    if (size < 0) {
      long total = 0;
      for (String s : kv) {
        total += Utf8Length.of(s);
      }
      size = (int) Math.min(Integer.MAX_VALUE, total);
      utf8Size = size;
    }
    return size;
  }

  @Override
  public Set<Map.Entry<String, String>> entrySet() {
    Set<Map.Entry<String, String>> es = entrySet;
    if (es == null) {
      es = new EntrySet();
      entrySet = es;
    }
    return es;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (o instanceof StringMap other) {
      return kv.length == other.kv.length
          && hashCode() == other.hashCode()
          && java.util.Arrays.equals(kv, other.kv);
    }
    return super.equals(o);
  }

  /** As {@link Map#hashCode()} specifies (Σ key hash ^ value hash), computed once. */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0 && !hashIsZero) {
      for (int i = 0; i < kv.length; i += 2) {
        h += kv[i].hashCode() ^ kv[i + 1].hashCode();
      }
      if (h == 0) {
        hashIsZero = true;
      } else {
        hash = h;
      }
    }
    return h;
  }

  private final class EntrySet extends AbstractSet<Map.Entry<String, String>> {
    @Override
    public int size() {
      return StringMap.this.size();
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
  }
}
