package io.sf2loki.tck;

import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.Term;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Records leadership calls and checks the listener contract as they happen: strict alternation,
 * {@code onLose} for the term that was acquired. Optional hooks run inside the calls (e.g. a fenced
 * commit at acquire, a drain at lose). Thread-safe.
 */
public final class RecordingLeadershipListener implements LeadershipListener {

  /** One call. {@code currentDuringCall} is {@link Term#isCurrent()} when the call began. */
  public record Event(Kind kind, Term term, boolean currentDuringCall) {}

  /** Which call. */
  public enum Kind {
    ACQUIRE,
    LOSE
  }

  private final List<Event> events = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private final Consumer<Term> onAcquireHook;
  private final Consumer<Term> onLoseHook;
  private Term held;

  /** A listener that only records. */
  public RecordingLeadershipListener() {
    this(t -> {}, t -> {});
  }

  /**
   * A listener that also runs {@code onAcquireHook} and {@code onLoseHook} inside the calls, on the
   * coordinator's thread, after recording them (an exception they throw reaches the coordinator).
   */
  public RecordingLeadershipListener(Consumer<Term> onAcquireHook, Consumer<Term> onLoseHook) {
    this.onAcquireHook = onAcquireHook;
    this.onLoseHook = onLoseHook;
  }

  @Override
  public void onAcquire(Term term) {
    synchronized (this) {
      if (held != null) {
        violations.add("onAcquire(" + term.describe() + ") while " + held.describe() + " is held");
      }
      held = term;
      events.add(new Event(Kind.ACQUIRE, term, term.isCurrent()));
    }
    onAcquireHook.accept(term);
  }

  @Override
  public void onLose(Term term) {
    synchronized (this) {
      if (held != term) {
        violations.add(
            "onLose("
                + term.describe()
                + ") but held "
                + (held == null ? "nothing" : held.describe()));
      }
      held = null;
      events.add(new Event(Kind.LOSE, term, term.isCurrent()));
    }
    onLoseHook.accept(term);
  }

  /** Every call so far, in order. */
  public synchronized List<Event> events() {
    return List.copyOf(events);
  }

  /** The terms acquired so far, in order. */
  public synchronized List<Term> acquired() {
    return events.stream().filter(e -> e.kind() == Kind.ACQUIRE).map(Event::term).toList();
  }

  /** The term acquired and not yet lost. */
  public synchronized Optional<Term> held() {
    return Optional.ofNullable(held);
  }

  /** Contract violations seen (empty when the coordinator behaved). */
  public synchronized List<String> violations() {
    return List.copyOf(violations);
  }
}
