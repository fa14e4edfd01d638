package io.sf2loki.coordinate.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.balance.Roster;
import io.sf2loki.coordinate.balance.RosterDocument;
import io.sf2loki.coordinate.balance.RosterException;
import io.sf2loki.coordinate.balance.ShardQuota;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.tck.Contender;
import io.sf2loki.tck.SimulatedTime;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A leader of one shard under the replica's real shard quota keeps renewing on time while the
 * roster does not answer: roster I/O never runs on the coordinator's thread.
 */
@Timeout(60)
public abstract class SlowRosterContract {

  protected final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));

  private final StuckRoster roster = new StuckRoster();
  private Contender contender;
  private ShardQuota quota;

  /** The backend's ttl (lease duration). */
  protected abstract Duration ttl();

  /** The backend's renew interval. */
  protected abstract Duration renewInterval();

  /** A coordinator of a lease nobody holds, on {@link #time}, under {@code environment}. */
  protected abstract Coordinator coordinator(CoordinatorEnvironment environment) throws Exception;

  @AfterEach
  void stop() throws Exception {
    roster.unblock();
    if (contender != null) {
      contender.stop();
    }
    if (quota != null) {
      quota.close();
    }
  }

  @Test
  void aRosterHeartbeatBlockedForSeveralRenewIntervalsDelaysNoRenewal() throws Exception {
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            time.clock(), time.ticker(), Optional.empty(), new SimpleMeterRegistry(), Map.of());
    quota = new ShardQuota("a", List.of("emea", "apac"), 0, roster, ttl(), renewInterval(), env);
    RenewalLog renewals = new RenewalLog(quota);
    // the test thread does not take part: simulated time runs whenever the coordinator sleeps
    contender = Contender.start(time, "a", coordinator(env.withShard("emea", renewals)));

    await().atMost(TestTiming.seconds(20)).until(() -> roster.blockedSinceNanos() >= 0);
    long stuckSince = roster.blockedSinceNanos();
    await()
        .alias("three renewals while the roster is stuck")
        .atMost(TestTiming.seconds(20))
        .until(() -> renewals.atNanos().stream().filter(t -> t > stuckSince).count() >= 3);

    List<Long> at = renewals.atNanos();
    List<Duration> gaps = new ArrayList<>();
    for (int i = 1; i < at.size(); i++) {
      gaps.add(Duration.ofNanos(at.get(i) - at.get(i - 1)));
    }
    assertThat(gaps).allSatisfy(gap -> assertThat(gap).isLessThanOrEqualTo(renewInterval()));
  }

  /** Answers its first heartbeat; every later call blocks until the test ends. */
  private final class StuckRoster implements Roster {
    private final CountDownLatch released = new CountDownLatch(1);
    private RosterDocument document = RosterDocument.EMPTY;
    private volatile long blockedSinceNanos = -1;
    private boolean answered;

    long blockedSinceNanos() {
      return blockedSinceNanos;
    }

    void unblock() {
      released.countDown();
    }

    private synchronized void stall() throws RosterException {
      if (!answered) {
        answered = true;
        return;
      }
      if (blockedSinceNanos < 0) {
        blockedSinceNanos = time.nanos();
      }
      try {
        released.await(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RosterException(location(), "interrupted", false, e);
      }
    }

    @Override
    public RosterDocument read() throws RosterException {
      stall();
      return document;
    }

    @Override
    public RosterDocument heartbeat(String replica, Instant expiresAt, Instant now)
        throws RosterException {
      stall();
      document = document.live(now).with(replica, expiresAt);
      return document;
    }

    @Override
    public void leave(String replica, Instant now) throws RosterException {
      stall();
      document = document.without(replica);
    }

    @Override
    public String location() {
      return "stuck";
    }
  }

  /**
   * The quota, recording the simulated time of each confirmed renewal: a leader asks {@link
   * ShardBalance.Reservation#shouldShed} after every one.
   */
  private final class RenewalLog implements ShardBalance {
    private final ShardBalance quota;
    private final List<Long> atNanos = new CopyOnWriteArrayList<>();

    RenewalLog(ShardBalance quota) {
      this.quota = quota;
    }

    int count() {
      return atNanos.size();
    }

    List<Long> atNanos() {
      return List.copyOf(atNanos);
    }

    @Override
    public void tick() {
      quota.tick();
    }

    @Override
    public Optional<Reservation> reserve(String shard) {
      return quota.reserve(shard).map(this::logged);
    }

    @Override
    public Optional<Duration> roomMayOpenIn() {
      return quota.roomMayOpenIn();
    }

    @Override
    public void close() {
      quota.close();
    }

    private Reservation logged(Reservation seat) {
      return new Reservation() {
        @Override
        public void won() {
          seat.won();
        }

        @Override
        public void cancel() {
          seat.cancel();
        }

        @Override
        public boolean shouldShed() {
          atNanos.add(time.nanos());
          return seat.shouldShed();
        }

        @Override
        public void handedOver(HandOver reason) {
          seat.handedOver(reason);
        }
      };
    }
  }
}
