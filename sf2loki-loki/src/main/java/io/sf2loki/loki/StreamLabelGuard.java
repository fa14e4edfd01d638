package io.sf2loki.loki;

import io.sf2loki.model.LabelSetMemo;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StreamLabels;
import io.sf2loki.model.StringMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Label enforcement at the sink boundary (invariant 5). A label whose name is not allowed, is not a
 * valid Loki label name, or whose value exceeds Loki's length limit would either explode stream
 * cardinality or get the entry rejected; it is moved to structured metadata instead (an existing
 * metadata pair of the same name wins), so the data still reaches Loki.
 */
final class StreamLabelGuard {

  /** What the guard did to one entry. */
  record Result(LogEntry entry, Set<String> demoted) {}

  private final Set<String> allowed;
  // The names each label set must demote (usually none), remembered per shared label set.
  private final LabelSetMemo<Set<String>> demotions = new LabelSetMemo<>();

  /**
   * @param extraAllowed names allowed beyond {@link StreamLabels#ALLOWLIST} (promoted ELF labels,
   *     {@code backfill})
   */
  StreamLabelGuard(Set<String> extraAllowed) {
    java.util.HashSet<String> all = new java.util.HashSet<>(StreamLabels.ALLOWLIST);
    all.addAll(extraAllowed);
    all.removeIf(n -> !StreamLabels.isValidName(n)); // checked once here, not per entry
    this.allowed = Set.copyOf(all);
  }

  private Set<String> demotedNames(StringMap given) {
    Set<String> demoted = new java.util.TreeSet<>();
    for (int i = 0; i < given.size(); i++) {
      if (!ok(given.keyAt(i), given.valueAt(i))) {
        demoted.add(given.keyAt(i));
      }
    }
    return demoted.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(demoted);
  }

  Result apply(LogEntry entry) {
    Set<String> demoted = demotions.get(entry.labels(), this::demotedNames);
    if (demoted.isEmpty()) {
      return new Result(entry, Set.of());
    }
    Map<String, String> labels = new TreeMap<>(entry.labels());
    Map<String, String> metadata = new TreeMap<>(entry.metadata());
    for (String name : demoted) {
      metadata.putIfAbsent(name, labels.remove(name));
    }
    LogEntry moved =
        LogEntry.of(entry.timestampNanos(), labels, entry.line(), metadata, entry.checkpoint());
    return new Result(moved, demoted);
  }

  private boolean ok(String name, String value) {
    return allowed.contains(name) && value.length() <= StreamLabels.MAX_VALUE_LENGTH;
  }
}
