package io.sf2loki.cli.backfill;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the window's progress document held for the backfill's source before a run or a dry run: the
 * event types (or objects) on which an earlier run of the same source and window made progress. It
 * tells a run that resumes, or finds the window already read, from one that starts afresh.
 *
 * @param document where the window's progress lives, for messages
 * @param types the types with a committed cursor
 */
record PriorProgress(String document, Set<String> types) {

  PriorProgress {
    types = Set.copyOf(types);
  }

  /**
   * The types of the request's source with a key ({@code <source>:<type>}) in {@code committed};
   * only the requested ones when {@code --event-types} (or {@code --objects}) named some, so that
   * another type's progress in the same window does not count as this run's.
   */
  static PriorProgress of(String document, Map<String, String> committed, BackfillRequest request) {
    Set<String> types = new TreeSet<>();
    String prefix = request.source() + ":";
    for (String key : committed.keySet()) {
      String type = key.startsWith(prefix) ? key.substring(prefix.length()) : null;
      if (type != null && (request.eventTypes().isEmpty() || request.eventTypes().contains(type))) {
        types.add(type);
      }
    }
    return new PriorProgress(document, types);
  }

  /** True when an earlier run of this window committed progress. */
  boolean any() {
    return !types.isEmpty();
  }

  /** The types, sorted and comma separated. */
  String typeList() {
    return String.join(", ", new TreeSet<>(types));
  }
}
