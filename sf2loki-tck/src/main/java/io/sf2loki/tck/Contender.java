package io.sf2loki.tck;

import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.Term;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.Optional;

/**
 * One coordinator running on its own participant thread of a {@link SimulatedTime}, with its
 * listener and its stop signal (whose waits are simulated sleeps too).
 */
public final class Contender {

  private final String name;
  private final Coordinator coordinator;
  private final RecordingLeadershipListener listener;
  private final SimulatedTime.Stop stop;
  private final SimulatedTime.Participant participant;

  private Contender(
      SimulatedTime time, String name, Coordinator coordinator, RecordingLeadershipListener l) {
    this.name = name;
    this.coordinator = coordinator;
    this.listener = l;
    this.stop = time.newStop();
    this.participant = time.start(name, () -> coordinator.run(listener, stop));
  }

  /** Starts {@code coordinator.run(listener, stop)} on a participant thread named {@code name}. */
  public static Contender start(
      SimulatedTime time, String name, Coordinator coordinator, RecordingLeadershipListener l) {
    return new Contender(time, name, coordinator, l);
  }

  /** Starts {@code coordinator} with a new {@link RecordingLeadershipListener}. */
  public static Contender start(SimulatedTime time, String name, Coordinator coordinator) {
    return start(time, name, coordinator, new RecordingLeadershipListener());
  }

  /** The participant thread's name. */
  public String name() {
    return name;
  }

  /** The coordinator under test. */
  public Coordinator coordinator() {
    return coordinator;
  }

  /** What the coordinator told its listener. */
  public RecordingLeadershipListener listener() {
    return listener;
  }

  /** The held term when it is still current. */
  public Optional<Term> currentTerm() {
    return listener.held().filter(Term::isCurrent);
  }

  /** Whether a term is held and still current. */
  public boolean isLeading() {
    return currentTerm().isPresent();
  }

  /**
   * Requests a graceful stop, waits (in real time) for run() to return and closes the coordinator.
   * The caller must not be a participant of the timeline, or must not need time to pass for the
   * stop.
   */
  public void stop() throws Exception {
    stop.requestStop();
    participant.join(TestTiming.seconds(20));
    coordinator.close();
  }

  /** Requests a stop without waiting (a crash is modelled by the adapter's faults, then this). */
  public void requestStop() {
    stop.requestStop();
  }

  /**
   * Lets simulated time pass until {@code run} has returned (after a stop, a kill or a failed
   * campaign), then joins it: a permanent {@link CoordinatorException} is rethrown, a transient one
   * is what the engine backs off from and campaigns again after, so it is dropped. The caller must
   * be a participant of {@code time}.
   */
  public void awaitEnded(SimulatedTime time) throws Exception {
    Thread t = participant.thread();
    time.awaitCondition(() -> !t.isAlive(), Duration.ofMinutes(10), Duration.ofSeconds(1));
    try {
      participant.join(TestTiming.seconds(10));
    } catch (CoordinatorException e) {
      if (e.failureClass().isPermanent()) {
        throw e;
      }
    }
  }

  /** The participant thread running {@code run}. */
  public SimulatedTime.Participant participant() {
    return participant;
  }
}
