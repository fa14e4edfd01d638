package io.sf2loki.model;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A bounded memo keyed by label set. Label sets are few and shared per stream (one {@link
 * StringMap} instance with a memoised hash), so a lookup here replaces per-entry map work on the
 * hot path. Past {@link #MAX_SETS} distinct sets — no sane label cardinality — nothing more is
 * remembered and the value is computed each time, so a runaway source cannot grow the heap.
 * Thread-safe.
 *
 * @param <V> what is remembered per label set
 */
public final class LabelSetMemo<V> {

  /** How many distinct label sets are remembered at most. */
  public static final int MAX_SETS = 4096;

  private final Map<StringMap, V> values = new ConcurrentHashMap<>();

  /** The value for {@code labels}: remembered, or computed (and remembered while under the cap). */
  public V get(StringMap labels, Function<StringMap, V> compute) {
    V value = values.get(labels);
    if (value == null) {
      value = compute.apply(labels);
      if (values.size() < MAX_SETS) {
        V earlier = values.putIfAbsent(labels, value);
        return earlier == null ? value : earlier;
      }
    }
    return value;
  }

  /** How many label sets are remembered. */
  public int size() {
    return values.size();
  }
}
