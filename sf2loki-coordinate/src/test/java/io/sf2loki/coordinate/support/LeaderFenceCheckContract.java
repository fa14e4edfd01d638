package io.sf2loki.coordinate.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.FakeEpochFloor;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.tck.RecordingLeadershipListener.Event;
import io.sf2loki.tck.RecordingLeadershipListener.Kind;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The leader's fence check, for each lease coordinator: while leading, it compares the store's
 * persisted epoch with its term's at every renewal, ends the term when the store's is above (a
 * {@code --fence-leader} repair) and campaigns again above it; a store epoch equal to the term's,
 * or one that cannot be read, keeps the term. A backend's test supplies its coordinators on
 * simulated time.
 */
public abstract class LeaderFenceCheckContract {

  private static final Duration STEP = Duration.ofMillis(500);

  @TempDir Path dir;
  private final List<Contender> running = new ArrayList<>();
  private Backend backend;
  private FencedStore store;

  /**
   * What a backend gives the scenarios.
   *
   * @param time the timeline its coordinators sleep on
   * @param metrics where its coordinators report
   * @param renewInterval its renew interval: the fence check's interval
   * @param coordinators makes a coordinator, not yet run, contending as a holder with a floor
   * @param resources released after the test (a mock API server)
   */
  public record Backend(
      SimulatedTime time,
      MeterRegistry metrics,
      Duration renewInterval,
      Coordinators coordinators,
      AutoCloseable resources) {}

  /** Makes the coordinators of a backend. */
  @FunctionalInterface
  public interface Coordinators {
    Coordinator create(String holder, Optional<EpochFloor> floor) throws Exception;
  }

  /** Sets up the backend (a lease file, a mock API server) in {@code dir}. */
  protected abstract Backend open(Path dir) throws Exception;

  private SimulatedTime time() {
    return backend.time();
  }

  private Duration renewInterval() {
    return backend.renewInterval();
  }

  private Coordinator coordinator(String holder, Optional<EpochFloor> floor) throws Exception {
    return backend.coordinators().create(holder, floor);
  }

  @BeforeEach
  final void joinTheTimeline() throws Exception {
    backend = open(dir);
    time().join();
  }

  @AfterEach
  final void stopEverything() throws Exception {
    time().leave();
    for (Contender c : running) {
      c.stop();
    }
    if (store != null) {
      store.close();
    }
    backend.resources().close();
  }

  /** A leader whose every acquire claims its epoch in {@code store}, as the engine does. */
  private Contender leadClaiming(FencedStore store) throws Exception {
    Contender c =
        Contender.start(
            time(),
            "replica-a",
            coordinator("replica-a", Optional.of(store)),
            new RecordingLeadershipListener(store::claimEpoch, t -> {}));
    running.add(c);
    await(c::isLeading, Duration.ofMinutes(2));
    return c;
  }

  private boolean await(BooleanSupplier condition, Duration max) throws InterruptedException {
    return time().awaitCondition(condition, max, STEP);
  }

  private double checks(String outcome) {
    Counter c = backend.metrics().find("sf2loki_fence_checks").tag("outcome", outcome).counter();
    return c == null ? 0 : c.count();
  }

  private static List<Event> losses(Contender c) {
    return c.listener().events().stream().filter(e -> e.kind() == Kind.LOSE).toList();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aStoreEpochAboveTheTermEndsItWithinARenewalAndTheNextTermTakesAnEpochAboveIt(StoreKind kind)
      throws Exception {
    store = kind.open(dir);
    Contender a = leadClaiming(store);
    Term first = a.currentTerm().orElseThrow();
    store.commit(Map.of("eventlogfile:Login", "old"), first);

    // what `state set --fence-leader` does: claim the next epoch, write the repair fenced at it
    Term repair = new FakeTerm("sf2loki-cli state repair", first.epoch() + 1);
    store.claimEpoch(repair);
    store.commit(Map.of("eventlogfile:Login", "repaired"), repair);

    assertThat(await(() -> !losses(a).isEmpty(), renewInterval().plus(STEP)))
        .as("the term ends at the next renewal, though it commits nothing")
        .isTrue();
    Event lost = losses(a).get(0);
    assertThat(lost.term()).isSameAs(first);
    assertThat(lost.currentDuringCall()).as("revoked before the drain").isFalse();
    assertThat(first.lossReason().orElseThrow())
        .contains("fence epoch " + repair.epoch() + " is above this term's " + first.epoch());
    assertThat(await(() -> a.listener().acquired().size() == 2, Duration.ofMinutes(1)))
        .as("it campaigns again and leads")
        .isTrue();
    Term second = a.listener().acquired().get(1);
    assertThat(second.epoch()).isEqualTo(repair.epoch() + 1);
    assertThat(store.persistedEpoch()).hasValue(second.epoch());
    assertThat(store.load("eventlogfile:Login")).contains("repaired");
    assertThat(checks("fenced")).isEqualTo(1);
    assertThat(a.listener().violations()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aStoreEpochEqualToTheTermKeepsIt(StoreKind kind) throws Exception {
    store = kind.open(dir);
    Contender a = leadClaiming(store);
    Term term = a.currentTerm().orElseThrow();
    assertThat(store.persistedEpoch()).hasValue(term.epoch());

    time().sleep(Duration.ofMinutes(2));

    assertThat(a.currentTerm()).containsSame(term);
    assertThat(a.listener().events()).hasSize(1);
    assertThat(checks("kept")).isGreaterThanOrEqualTo(10);
    assertThat(checks("fenced")).isZero();
  }

  @Test
  void anUnreadableStoreEpochKeepsTheTermIsCountedAndIsReadAgainAtTheNextRenewal()
      throws Exception {
    FakeEpochFloor floor = FakeEpochFloor.of(0);
    Contender a = lead(Optional.of(floor));
    Term term = a.currentTerm().orElseThrow();
    floor.failing(true);
    floor.set(term.epoch() + 5);

    time().sleep(Duration.ofMinutes(1));

    assertThat(a.currentTerm()).containsSame(term);
    assertThat(checks("error")).isGreaterThanOrEqualTo(5);
    floor.failing(false);
    assertThat(await(() -> !losses(a).isEmpty(), renewInterval().plus(STEP))).isTrue();
    assertThat(checks("fenced")).isEqualTo(1);
  }

  @Test
  void aHungStoreReadNeverDelaysARenewalAndIsTakenOnceItAnswers() throws Exception {
    HungFloor floor = new HungFloor();
    Contender a = lead(Optional.of(floor));
    Term term = a.currentTerm().orElseThrow();
    floor.hang(OptionalLong.of(term.epoch() + 1));

    time().sleep(Duration.ofMinutes(1));

    assertThat(a.currentTerm()).as("renewals went on while the read hung").containsSame(term);
    assertThat(checks("kept") + checks("error") + checks("fenced")).isZero();
    floor.answer();
    assertThat(await(() -> !losses(a).isEmpty(), renewInterval().plus(STEP))).isTrue();
    assertThat(checks("fenced")).isEqualTo(1);
    assertThat(await(() -> a.listener().acquired().size() == 2, Duration.ofMinutes(1))).isTrue();
    assertThat(a.listener().acquired().get(1).epoch()).isGreaterThan(term.epoch() + 1);
  }

  private Contender lead(Optional<EpochFloor> floor) throws Exception {
    Contender c = Contender.start(time(), "replica-a", coordinator("replica-a", floor));
    running.add(c);
    await(c::isLeading, Duration.ofMinutes(2));
    return c;
  }

  /** A floor whose reads, once {@link #hang} was called, block until {@link #answer}. */
  private static final class HungFloor implements EpochFloor {
    private final CountDownLatch answered = new CountDownLatch(1);
    private volatile boolean hanging;
    private volatile OptionalLong value = OptionalLong.empty();

    void hang(OptionalLong then) {
      value = then;
      hanging = true;
    }

    void answer() {
      answered.countDown();
    }

    @Override
    public OptionalLong persistedEpoch() {
      if (hanging) {
        try {
          answered.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return value;
    }
  }
}
