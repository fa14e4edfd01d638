package io.sf2loki.tck;

import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Term;
import java.time.Duration;
import java.util.Optional;

/** One coordinator running on its own participant thread, with its listener and stop trigger. */
public final class Contender {

  private final String name;
  private final Coordinator coordinator;
  private final RecordingLeadershipListener listener;
  private final StopTrigger stop = new StopTrigger();
  private final SimulatedTime.Participant participant;

  private Contender(
      SimulatedTime time, String name, Coordinator coordinator, RecordingLeadershipListener l) {
    this.name = name;
    this.coordinator = coordinator;
    this.listener = l;
    this.participant = time.start(name, () -> coordinator.run(listener, stop));
  }

  public static Contender start(
      SimulatedTime time, String name, Coordinator coordinator, RecordingLeadershipListener l) {
    return new Contender(time, name, coordinator, l);
  }

  public static Contender start(SimulatedTime time, String name, Coordinator coordinator) {
    return start(time, name, coordinator, new RecordingLeadershipListener());
  }

  public String name() {
    return name;
  }

  public RecordingLeadershipListener listener() {
    return listener;
  }

  /** The held term when it is still current. */
  public Optional<Term> currentTerm() {
    return listener.held().filter(Term::isCurrent);
  }

  public boolean isLeading() {
    return currentTerm().isPresent();
  }

  /** Requests a graceful stop and waits for run() to return. */
  public void stop() throws Exception {
    stop.requestStop();
    participant.join(Duration.ofSeconds(20));
    coordinator.close();
  }

  /** Requests a stop without waiting (a crash is modelled by {@link #participant()} leaving). */
  public void requestStop() {
    stop.requestStop();
  }

  public SimulatedTime.Participant participant() {
    return participant;
  }
}
