package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.deadline.IoTimeoutException;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.FailureKind;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lease file on a mount that stops answering: its reads and writes block until the mount comes
 * back. The leader must stop leading before its lease can expire under it, where a standby would
 * take over. Lease timing runs on simulated time; only the deadline of each hung call is real (a
 * hung call takes no simulated time). Without deadlines the coordinator would block for ever: the
 * class timeout turns that into a failure.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileLeaseHungMountTest {

  private static final Duration IO_TIMEOUT = TestTiming.millis(500);

  @TempDir Path dir;
  private FileLeaseFixture fx;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final CountDownLatch mountBack = new CountDownLatch(1);
  private Contender leader;
  private final AtomicReference<Instant> lostAt = new AtomicReference<>();

  /** The real lease file, whose calls hang once the mount does. */
  private final class HungMount implements FileLeaseStorage {
    private final FileLeaseFile file = new FileLeaseFile(fx.lease);
    private volatile boolean hung;

    private void block() {
      while (hung && mountBack.getCount() > 0) {
        try {
          mountBack.await();
        } catch (InterruptedException e) {
          // a hung NFS call ignores interrupts
        }
      }
    }

    @Override
    public LeaseRead read() {
      block();
      return file.read();
    }

    @Override
    public void write(FileLeaseDocument document) throws IOException {
      block();
      file.write(document);
    }

    @Override
    public String location() {
      return file.location();
    }
  }

  @BeforeEach
  void setUp() {
    fx = new FileLeaseFixture(dir);
  }

  @AfterEach
  void tearDown() throws Exception {
    mountBack.countDown();
    if (leader != null) {
      try {
        leader.stop();
      } catch (CoordinatorException e) {
        // Having stepped down, the coordinator campaigns on the still-hung mount and its read
        // fails: a transient campaign failure, which the engine backs off from and retries.
        assertThat(e.failureClass().kind()).isEqualTo(FailureKind.TRANSIENT);
      }
    }
    // A call abandoned at its deadline finishes on a pool thread once the mount is back, and its
    // write renames a file in @TempDir: let it land before JUnit deletes the directory, or the
    // clean-up races it and fails a test that passed ("Failed to close extension context").
    org.awaitility.Awaitility.await()
        .atMost(TestTiming.seconds(10))
        .until(() -> stuckThreads() == 0);
  }

  private double stuckThreads() {
    return registry.find("sf2loki_file_io_stuck_threads").gauges().stream()
        .mapToDouble(io.micrometer.core.instrument.Gauge::value)
        .sum();
  }

  private Contender start(FileLeaseStorage storage) {
    FileLeaseConfig config =
        new FileLeaseConfig(
            fx.lease, FileLeaseFixture.TTL, FileLeaseFixture.RENEW, Optional.empty(), IO_TIMEOUT);
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            fx.time.clock(), fx.time.ticker(), Optional.empty(), registry, Map.of());
    FileLeaseCoordinator coordinator =
        new FileLeaseCoordinator(deadlined(storage), "a", config, env, fx.time::sleep);
    return Contender.start(
        fx.time,
        "a",
        coordinator,
        new RecordingLeadershipListener(t -> {}, t -> lostAt.set(fx.time.instant())));
  }

  private void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
    assertThat(fx.time.awaitCondition(condition, Duration.ofMinutes(3), Duration.ofMillis(500)))
        .isTrue();
  }

  @Test
  void aHungReadIsUnknownAfterTheDeadlineAndNamesIt() {
    HungMount mount = new HungMount();
    mount.hung = true;
    DeadlineLeaseStorage storage = deadlined(mount);

    LeaseRead read = storage.read();

    assertThat(read)
        .isInstanceOfSatisfying(
            LeaseRead.Unknown.class,
            u -> assertThat(u.detail()).contains(fx.lease.toString(), "io_timeout"));
  }

  @Test
  void aHungWriteFailsWithATypedTimeoutAfterTheDeadline() {
    HungMount mount = new HungMount();
    mount.hung = true;
    DeadlineLeaseStorage storage = deadlined(mount);

    assertThatThrownBy(() -> storage.write(new FileLeaseDocument("a", Instant.EPOCH, 1)))
        .isInstanceOf(IoTimeoutException.class)
        .hasMessageContaining("write of " + fx.lease);
  }

  private DeadlineLeaseStorage deadlined(FileLeaseStorage storage) {
    return new DeadlineLeaseStorage(
        storage,
        new BlockingIo(
            "lease", DeadlineLeaseStorage.THREADS, new NamedThreadFactory("test-lease"), registry),
        IO_TIMEOUT);
  }

  @Test
  void aHungLeaseFileMakesTheLeaderGiveUpOneIoTimeoutBeforeItsLeaseExpires() throws Exception {
    HungMount mount = new HungMount();
    fx.time.join(); // on the test's own thread (the class timeout runs it on one of its own)
    Term term;
    Instant expiry;
    try {
      leader = start(mount);
      await(leader::isLeading);
      term = leader.currentTerm().orElseThrow();
      expiry = fx.document().expiresAt();

      mount.hung = true;
      await(() -> leader.listener().held().isEmpty());
    } finally {
      fx.time.leave();
    }

    assertThat(lostAt.get()).isBeforeOrEqualTo(expiry.minus(IO_TIMEOUT));
    assertThat(term.isCurrent()).isFalse();
    assertThat(term.lossReason())
        .hasValueSatisfying(r -> assertThat(r).contains("io_timeout", fx.lease.toString()));
    assertThat(
            registry.find("sf2loki_file_io_timeouts").tag("file", "lease").counters().stream()
                .mapToDouble(Counter::count)
                .sum())
        .isGreaterThanOrEqualTo(1);
  }
}
