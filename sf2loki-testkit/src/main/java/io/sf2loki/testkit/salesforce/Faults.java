package io.sf2loki.testkit.salesforce;

import io.sf2loki.testkit.FaultQueue;
import java.util.Optional;

/** The queue of scripted faults; each request of a route takes the first fault that applies. */
final class Faults {

  private final FaultQueue<Fault> pending = new FaultQueue<>(Fault::times);

  void add(Fault fault) {
    pending.add(fault);
  }

  void clear() {
    pending.clear();
  }

  /** Requests still to be hit by a queued fault (a fault's remaining uses included). */
  int pendingCount() {
    return pending.pendingUses();
  }

  /** Takes one use of the first fault that can strike a request of {@code route}. */
  Optional<Fault> take(Fault.Route route) {
    return pending.take(f -> f.appliesTo(route));
  }
}
