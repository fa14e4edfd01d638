package io.sf2loki.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An ordered group of entries pushed to Loki in one request and committed together afterwards.
 *
 * @param entries the entries in enqueue order; checkpoint-only entries included (sinks skip them)
 */
public record Batch(List<LogEntry> entries) {

  public Batch {
    entries = List.copyOf(entries);
  }

  /** Entries that are sent to Loki: everything except checkpoint-only markers. */
  public List<LogEntry> deliverable() {
    return entries.stream().filter(e -> !e.isCheckpointOnly()).toList();
  }

  /** Sum of {@link LogEntry#utf8Size()} over the deliverable entries. */
  public long utf8Size() {
    long total = 0;
    for (LogEntry e : entries) {
      if (!e.isCheckpointOnly()) {
        total += e.utf8Size();
      }
    }
    return total;
  }

  /**
   * The last checkpoint value per key, in first-seen key order: what one store write commits once
   * this batch has been delivered (invariant 1: per-key order is enqueue order).
   */
  public Map<String, String> lastCheckpointPerKey() {
    Map<String, String> last = new LinkedHashMap<>();
    for (LogEntry e : entries) {
      e.checkpoint().ifPresent(t -> last.put(t.key(), t.value()));
    }
    return last;
  }

  /** True when no entry needs to reach Loki (only checkpoint markers, or nothing). */
  public boolean isCheckpointOnly() {
    return entries.stream().allMatch(LogEntry::isCheckpointOnly);
  }
}
