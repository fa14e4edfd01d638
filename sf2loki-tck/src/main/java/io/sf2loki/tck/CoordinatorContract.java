package io.sf2loki.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.RecordingLeadershipListener.Kind;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle every {@link Coordinator} keeps, {@code noop} included: {@link Coordinator#run}
 * grants a current term to a lone contender, listener calls strictly alternate, a graceful stop
 * delivers {@code onLose} while the term is still current (the final drain commits while holding
 * it, invariant 3) and ends the term, an interrupt ends the term and surfaces as {@link
 * InterruptedException}, {@code run} runs once, and {@code close} is idempotent.
 *
 * <p>Everything runs on a {@link SimulatedTime}: the coordinator must sleep through the sleeper the
 * adapter gives it ({@code time::sleep}) and may wait on its stop signal (whose waits are simulated
 * sleeps too), so that a 30 s lease passes in microseconds. A coordinator that elects one leader
 * among replicas extends {@link LeaseCoordinatorContract} instead.
 */
public abstract class CoordinatorContract {

  /** The granularity at which the kit watches simulated time pass. */
  protected static final Duration STEP = Duration.ofMillis(500);

  /** The timeline of the test: the test thread participates in it from set-up to tear-down. */
  protected final SimulatedTime time =
      new SimulatedTime(
          Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sf2loki-tck-participant"));

  private final List<Contender> running = new ArrayList<>();

  /**
   * A new coordinator contending as {@code identity}, not yet run, that sleeps on {@code time} and
   * reads {@code floor} at every acquire (a coordinator without epochs ignores it).
   */
  protected abstract Coordinator newCoordinator(
      String identity, SimulatedTime time, Optional<EpochFloor> floor) throws Exception;

  /**
   * The longest simulated time a contender may take to acquire a lease nobody holds any more (a
   * stale lease's expiry included). Two minutes unless a backend needs longer.
   */
  protected Duration acquireWithin() {
    return Duration.ofMinutes(2);
  }

  @BeforeEach
  final void joinTheTimeline() {
    time.join();
  }

  @AfterEach
  final void stopEveryContender() throws Exception {
    time.leave();
    for (Contender c : running) {
      c.stop();
    }
    running.clear();
  }

  /** Starts {@code coordinator} with {@code listener}; it is stopped after the test. */
  protected final Contender start(
      String identity, Coordinator coordinator, RecordingLeadershipListener listener) {
    Contender c = Contender.start(time, identity, coordinator, listener);
    running.add(c);
    return c;
  }

  /** Starts a new coordinator for {@code identity}; it is stopped after the test. */
  protected final Contender start(String identity, Optional<EpochFloor> floor) throws Exception {
    return start(
        identity, newCoordinator(identity, time, floor), new RecordingLeadershipListener());
  }

  /**
   * Lets simulated time pass until {@code condition} holds, failing after {@link #acquireWithin}.
   */
  protected final void await(String what, BooleanSupplier condition) throws InterruptedException {
    assertThat(time.awaitCondition(condition, acquireWithin(), STEP)).as(what).isTrue();
  }

  /**
   * Requests a graceful stop of {@code c} and waits for its {@code run} to return, letting
   * simulated time pass meanwhile (a release may sleep).
   */
  protected final void stopGracefully(Contender c) throws Exception {
    running.remove(c);
    c.requestStop();
    time.leave();
    try {
      c.participant().join(TestTiming.seconds(20));
    } finally {
      time.join();
    }
    c.coordinator().close();
  }

  /** A lone contender acquires a current term held by its own identity. */
  @Test
  void loneContenderAcquiresACurrentTermInItsOwnName() throws Exception {
    Contender a = start("replica-a", Optional.empty());
    await("replica-a acquires", a::isLeading);

    Term term = a.currentTerm().orElseThrow();
    assertThat(term.holder()).isEqualTo("replica-a");
    assertThat(a.listener().acquired()).containsExactly(term);
    assertThat(a.listener().violations()).isEmpty();
  }

  /**
   * A graceful stop delivers exactly one {@link LeadershipListener#onLose} for the acquired term,
   * while the term is still current (the drain commits under it), and the term has ended when
   * {@code run} returns.
   */
  @Test
  void gracefulStopLosesOnceWhileStillCurrentThenEndsTheTerm() throws Exception {
    Contender a = start("replica-a", Optional.empty());
    await("replica-a acquires", a::isLeading);

    stopGracefully(a);

    List<RecordingLeadershipListener.Event> events = a.listener().events();
    assertThat(events)
        .extracting(RecordingLeadershipListener.Event::kind)
        .containsExactly(Kind.ACQUIRE, Kind.LOSE);
    assertThat(events.get(1).term()).isSameAs(events.get(0).term());
    assertThat(events.get(1).currentDuringCall()).as("current during the final drain").isTrue();
    assertThat(events.get(1).term().isCurrent()).as("current after run returned").isFalse();
    assertThat(a.listener().violations()).isEmpty();
  }

  /**
   * An interrupt of the thread in {@code run} ends the held term ({@code onLose} once, not current
   * afterwards) and {@code run} throws {@link InterruptedException}.
   */
  @Test
  void interruptEndsTheTermAndRunThrowsInterruptedException() throws Exception {
    Contender a = start("replica-a", Optional.empty());
    await("replica-a acquires", a::isLeading);
    Term term = a.currentTerm().orElseThrow();
    running.remove(a);
    time.sleep(Duration.ofMillis(1)); // quiescent: the contender sleeps until its next renewal

    a.participant().thread().interrupt();
    time.leave();
    try {
      assertThatThrownBy(() -> a.participant().join(TestTiming.seconds(20)))
          .isInstanceOf(InterruptedException.class);
    } finally {
      time.join();
    }
    a.coordinator().close();

    assertThat(a.listener().events())
        .extracting(RecordingLeadershipListener.Event::kind)
        .containsExactly(Kind.ACQUIRE, Kind.LOSE);
    assertThat(term.isCurrent()).isFalse();
    assertThat(a.listener().violations()).isEmpty();
  }

  /** {@code run} may be called once: a second call is refused and tells the listener nothing. */
  @Test
  void runMayBeCalledOnlyOnce() throws Exception {
    Contender a = start("replica-a", Optional.empty());
    await("replica-a acquires", a::isLeading);
    stopGracefully(a);

    RecordingLeadershipListener second = new RecordingLeadershipListener();
    assertThatThrownBy(() -> a.coordinator().run(second, time.newStop()))
        .isInstanceOf(IllegalStateException.class);
    assertThat(second.events()).isEmpty();
  }

  /** {@link Coordinator#close()} is idempotent. */
  @Test
  void closeIsIdempotent() throws Exception {
    Contender a = start("replica-a", Optional.empty());
    await("replica-a acquires", a::isLeading);
    stopGracefully(a);

    a.coordinator().close();
    a.coordinator().close();
  }
}
