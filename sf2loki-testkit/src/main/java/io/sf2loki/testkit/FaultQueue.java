package io.sf2loki.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The scripted faults of one fake, in the order queued. A request takes one use of the first fault
 * that applies to it, however far back that fault sits: a fault aimed at another operation or route
 * neither fires on this request nor hides the faults behind it. A fault is spent after its number
 * of uses.
 *
 * <p>Deterministic: which fault strikes depends only on the queue and the request, never on a clock
 * or a random number. Thread-safe; each {@link #take} is atomic.
 *
 * @param <F> the protocol's fault type
 */
public final class FaultQueue<F> {

  private final ToIntFunction<? super F> uses;
  private final List<Slot<F>> pending = new ArrayList<>();

  private static final class Slot<F> {
    final F fault;
    int left;

    Slot(F fault, int left) {
      this.fault = fault;
      this.left = left;
    }
  }

  /**
   * An empty queue.
   *
   * @param uses how many requests a fault applies to (at least 1)
   */
  public FaultQueue(ToIntFunction<? super F> uses) {
    this.uses = Objects.requireNonNull(uses, "uses");
  }

  /** Queues {@code fault} behind those already queued. */
  public synchronized void add(F fault) {
    Objects.requireNonNull(fault, "fault");
    int n = uses.applyAsInt(fault);
    if (n < 1) {
      throw new IllegalArgumentException("a fault applies to at least one request: " + fault);
    }
    pending.add(new Slot<>(fault, n));
  }

  /**
   * Takes one use of the first queued fault for which {@code appliesTo} holds.
   *
   * @return that fault as queued, or empty when none applies (the queue is then unchanged)
   */
  public synchronized Optional<F> take(Predicate<? super F> appliesTo) {
    for (int i = 0; i < pending.size(); i++) {
      Slot<F> slot = pending.get(i);
      if (appliesTo.test(slot.fault)) {
        if (--slot.left == 0) {
          pending.remove(i);
        }
        return Optional.of(slot.fault);
      }
    }
    return Optional.empty();
  }

  /** Requests still to be hit: the uses left of every queued fault, summed. */
  public synchronized int pendingUses() {
    return pending.stream().mapToInt(s -> s.left).sum();
  }

  /** Forgets every queued fault. */
  public synchronized void clear() {
    pending.clear();
  }
}
