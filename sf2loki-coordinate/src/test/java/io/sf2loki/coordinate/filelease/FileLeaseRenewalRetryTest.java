package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.coordinate.support.FaultyLeaseStorage;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.RecordingLeadershipListener;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader whose renewal fails retries it, several times while there is room, and steps down only
 * when no retry can start by its last chance (the last good renewal + ttl - 2 × io_timeout). On
 * simulated time, but every wait of the coordinator overshoots by 1 to 5 ms, as a real sleep does:
 * a schedule that wakes exactly on its deadline finds itself past it.
 */
class FileLeaseRenewalRetryTest {

  private static final Duration STEP = Duration.ofMillis(500);

  @TempDir Path dir;
  private FileLeaseFixture fx;
  private FaultyLeaseStorage faults;
  private final Recorded storage = new Recorded();
  private final AtomicLong lostAt = new AtomicLong();
  private final RecordingLeadershipListener listener =
      new RecordingLeadershipListener(t -> {}, t -> lostAt.set(fx.time.nanos()));
  private final AtomicLong waits = new AtomicLong();
  private volatile boolean freezeAfterFirstFailure;
  private volatile boolean frozen;
  private Contender leader;

  /** A read or write of the lease: when it started, whether it worked, whether a term was held. */
  private record Step(boolean write, long atNanos, boolean ok, boolean leading) {}

  /** The faulty lease file, recording every step the coordinator starts. */
  private final class Recorded implements FileLeaseStorage {
    final List<Step> steps = new CopyOnWriteArrayList<>();

    @Override
    public LeaseRead read() {
      long at = fx.time.nanos();
      LeaseRead read = faults.read();
      steps.add(new Step(false, at, read instanceof LeaseRead.Present, leading()));
      return read;
    }

    @Override
    public void write(FileLeaseDocument document) throws IOException {
      long at = fx.time.nanos();
      try {
        faults.write(document);
        steps.add(new Step(true, at, true, leading()));
      } catch (IOException e) {
        steps.add(new Step(true, at, false, leading()));
        throw e;
      }
    }

    @Override
    public String location() {
      return faults.location();
    }

    private boolean leading() {
      return listener.held().isPresent();
    }

    List<Step> failedWrites() {
      return steps.stream().filter(s -> s.write() && !s.ok()).toList();
    }

    /** The start of the last good write before the first failed one. */
    long lastGoodBeforeFailures() {
      long first = failedWrites().get(0).atNanos();
      return steps.stream()
          .filter(s -> s.write() && s.ok() && s.atNanos() <= first)
          .mapToLong(Step::atNanos)
          .max()
          .orElseThrow();
    }
  }

  /**
   * Wakes 1 to 5 ms after it was asked to; once armed, the first wait after a failed write is
   * frozen for 10 s more (a long GC pause, a stopped VM).
   */
  private boolean sleep(Duration d, StopSignal stop) throws InterruptedException {
    Duration late = Duration.ofMillis(1 + waits.getAndIncrement() % 5);
    if (freezeAfterFirstFailure && !frozen && !storage.failedWrites().isEmpty()) {
      frozen = true;
      late = late.plusSeconds(10);
    }
    return fx.time.sleep(d.plus(late), stop);
  }

  @BeforeEach
  void setUp() throws Exception {
    fx = new FileLeaseFixture(dir);
    faults = new FaultyLeaseStorage(new FileLeaseFile(fx.lease), fx.time);
    fx.time.join();
    leader =
        Contender.start(
            fx.time, "a", fx.coordinator(storage, "a", Optional.empty(), this::sleep), listener);
    await(leader::isLeading);
  }

  @AfterEach
  void tearDown() throws Exception {
    faults.writesFail(false);
    fx.time.leave();
    leader.stop();
  }

  private void await(BooleanSupplier condition) throws InterruptedException {
    assertThat(fx.time.awaitCondition(condition, Duration.ofMinutes(3), STEP)).isTrue();
  }

  private long lastChance(long lastGood) {
    return lastGood + FileLeaseFixture.TTL.toNanos() - 2 * fx.config.ioTimeout().toNanos();
  }

  @Test
  void aRenewalWriteThatFailsOnceIsRetriedAndTheTermKept() throws Exception {
    Term term = leader.currentTerm().orElseThrow();
    faults.failNextWrites(1);

    fx.time.sleep(Duration.ofMinutes(2));

    assertThat(storage.failedWrites()).hasSize(1);
    long failed = storage.failedWrites().get(0).atNanos();
    assertThat(storage.steps)
        .as("renewed at a retry, before the next regular renewal was due")
        .anySatisfy(
            s -> {
              assertThat(s.write() && s.ok()).isTrue();
              assertThat(s.atNanos())
                  .isBetween(failed + 1, failed + FileLeaseFixture.RENEW.toNanos() - 1);
            });
    assertThat(listener.events()).as("the one acquire, no loss").hasSize(1);
    assertThat(term.isCurrent()).isTrue();
    assertThat(fx.document().expiresAt())
        .isAfter(fx.time.instant().plus(FileLeaseFixture.TTL).minus(FileLeaseFixture.RENEW));
  }

  @Test
  void failingRenewalsAreRetriedSeveralTimesBeforeTheLastChance() throws Exception {
    faults.writesFail(true);

    await(() -> listener.held().isEmpty());

    long lastChance = lastChance(storage.lastGoodBeforeFailures());
    List<Step> attempts = storage.failedWrites().stream().filter(Step::leading).toList();
    assertThat(attempts)
        .as("the failed renewal and at least three retries, all by the last chance")
        .hasSizeGreaterThanOrEqualTo(4)
        .allSatisfy(s -> assertThat(s.atNanos()).isLessThanOrEqualTo(lastChance));
  }

  @Test
  void renewalsFailingToTheEndStepDownOutOfTimeWithoutAStepAfterTheLastChance() throws Exception {
    Term term = leader.currentTerm().orElseThrow();
    faults.writesFail(true);

    await(() -> listener.held().isEmpty());

    long lastChance = lastChance(storage.lastGoodBeforeFailures());
    assertThat(storage.steps)
        .filteredOn(Step::leading)
        .allSatisfy(s -> assertThat(s.atNanos()).isLessThanOrEqualTo(lastChance));
    assertThat(term.lossReason())
        .hasValueSatisfying(
            r ->
                assertThat(r)
                    .contains("io_timeout", "renewal failing", "injected write failure")
                    .doesNotContain("paused"));
  }

  @Test
  void aRenewalThatWakesPastItsLastChanceSaysHowLateItStarted() throws Exception {
    Term term = leader.currentTerm().orElseThrow();
    freezeAfterFirstFailure = true;
    faults.writesFail(true);

    await(() -> listener.held().isEmpty());

    // the retry was due 2.5 s after the failure, well before the last chance; it woke 10 s late
    long lastChance = lastChance(storage.lastGoodBeforeFailures());
    Duration late = Duration.ofNanos(lostAt.get() - lastChance);
    assertThat(late).isGreaterThan(Duration.ofSeconds(1));
    assertThat(term.lossReason())
        .hasValueSatisfying(
            r ->
                assertThat(r)
                    .contains(
                        "the renewal started "
                            + late.toMillis()
                            + " ms after its last chance (the process was paused or starved?)"));
    assertThat(storage.steps)
        .filteredOn(Step::leading)
        .allSatisfy(s -> assertThat(s.atNanos()).isLessThanOrEqualTo(lastChance));
  }
}
