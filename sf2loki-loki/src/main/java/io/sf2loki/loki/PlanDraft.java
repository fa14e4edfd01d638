package io.sf2loki.loki;

import io.sf2loki.loki.WindowPlan.Placement;
import io.sf2loki.model.LogEntry;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The entries of one {@link WindowPlan} while {@link WindowPlanner} makes it: each as it came, as a
 * placement (or a pin) put it, or removed. Not thread-safe: one per plan.
 */
final class PlanDraft {

  private final List<LogEntry> entries;
  private LogEntry[] send; // copied on the first change: most plans change nothing
  private final Map<LogEntry, Placement> placements = new IdentityHashMap<>();
  private final List<Placement> removed = new ArrayList<>();

  PlanDraft(List<LogEntry> entries) {
    this.entries = entries;
  }

  boolean changed() {
    return send != null;
  }

  /** Entry {@code i} is pushed as {@code p} places it. */
  void replace(int i, Placement p) {
    array()[i] = p.placed();
    placements.put(p.placed(), p);
  }

  /** Entry {@code i} is not pushed, for the reason {@code p} gives. */
  void remove(int i, Placement p) {
    array()[i] = null;
    removed.add(p);
  }

  /** What is pushed, in batch order. */
  List<LogEntry> send() {
    if (send == null) {
      return entries;
    }
    List<LogEntry> out = new ArrayList<>(send.length);
    for (LogEntry e : send) {
      if (e != null) {
        out.add(e);
      }
    }
    return List.copyOf(out);
  }

  Map<LogEntry, Placement> placements() {
    return placements;
  }

  List<Placement> removed() {
    return List.copyOf(removed);
  }

  private LogEntry[] array() {
    if (send == null) {
      send = entries.toArray(new LogEntry[0]);
    }
    return send;
  }
}
