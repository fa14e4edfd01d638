package io.sf2loki.testkit.salesforce;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The queue of scripted faults; each request of a route consumes the first matching one. */
final class Faults {

  private final List<Fault> pending = new ArrayList<>();

  synchronized void add(Fault fault) {
    pending.add(fault);
  }

  synchronized void clear() {
    pending.clear();
  }

  synchronized int pendingCount() {
    return pending.size();
  }

  /** Takes one use of the first fault aimed at {@code route}. */
  synchronized Optional<Fault> take(Fault.Route route) {
    for (int i = 0; i < pending.size(); i++) {
      Fault f = pending.get(i);
      if (f.appliesTo(route)) {
        if (f.times() > 1) {
          pending.set(i, f.times(f.times() - 1));
        } else {
          pending.remove(i);
        }
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }
}
