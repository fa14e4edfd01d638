package io.sf2loki.state.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.AcquireRun;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Two single-instance ({@code noop}) daemons on one S3 or GCS object, each a store with its own
 * writer token over the same object: the one that starts second is refused at its start, before it
 * writes anything, and the first runs on; a restart after a crash takes the object over once the
 * crashed daemon's stamp has gone stale; an operator's repair in between is merged. Time is a
 * {@link ManualClock} (wall clock and ticker), the heartbeat is beaten by hand, the timings are the
 * production ones ({@link WriterLiveness#standard}).
 */
public abstract class SingleWriterContract {

  private static final Instant START = Instant.parse("2026-07-01T08:00:00Z");

  /** Both daemons' clock: wall time and, measured from {@link #START}, the monotonic ticker. */
  protected final ManualClock clock = new ManualClock(START);

  /** The stores' metrics. */
  protected final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  /** Heartbeats started and not stopped. */
  protected final AtomicInteger beating = new AtomicInteger();

  /** The object name of the current test. */
  protected String object;

  private final Ticker ticker = () -> Duration.between(START, clock.instant()).toNanos();

  /** A store on {@code object} whose retries do not wait. */
  protected abstract ConditionalCheckpointStore newStore(
      String object, RetryPolicy retry, StoreEnvironment environment, WriterLiveness liveness);

  /** The store's location for {@code object} ({@code s3://bucket/key}, {@code gs://...}). */
  protected abstract String location(String object);

  @BeforeEach
  final void freshObject(TestInfo info) {
    object = "single/" + info.getTestMethod().orElseThrow().getName() + "/state.json";
  }

  /** The liveness of the tests' daemons: production timings on {@link #clock}, beaten by hand. */
  protected final WriterLiveness liveness() {
    return new WriterLiveness(
        WriterLiveness.HEARTBEAT,
        WriterLiveness.WINDOW,
        WriterLiveness.EXPIRED,
        ticker,
        (interval, beat) -> {
          beating.incrementAndGet();
          AtomicInteger once = new AtomicInteger();
          return () -> {
            if (once.getAndIncrement() == 0) {
              beating.decrementAndGet();
            }
          };
        });
  }

  /** A daemon's store under {@code noop}: a process of its own, with its own writer token. */
  protected final ConditionalCheckpointStore daemon() {
    return newStore(object, noWait(), new StoreEnvironment(true, clock, metrics), liveness());
  }

  /** A plain reader of the object (no stamp of its own). */
  protected final ConditionalCheckpointStore reader() {
    return newStore(object, noWait(), new StoreEnvironment(false, clock, metrics), liveness());
  }

  private static RetryPolicy noWait() {
    return new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(2), d -> {}, () -> 0.5);
  }

  /** The term of a daemon on {@code host}, as the noop coordinator grants it. */
  protected static FakeTerm term(String host) {
    return FakeTerm.unfenced(host);
  }

  /** The writer stamp stored now. */
  protected final WriterStamp stamp() {
    return WriterStamp.in(reader().loadAll()).orElseThrow();
  }

  /** {@code call} fails with a {@link StoreLockedException} of {@code reason}. */
  protected static void refused(ThrowingCallable call, String reason, String... messageParts) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            StoreLockedException.class,
            e -> {
              assertThat(e.failureClass().reason()).isEqualTo(reason);
              for (String part : messageParts) {
                assertThat(e.getMessage()).contains(part);
              }
            });
  }

  @Test
  void aSecondDaemonIsRefusedAtItsStartBeforeWritingAndTheFirstKeepsWriting() {
    ConditionalCheckpointStore first = daemon();
    first.claimEpoch(term("host-a"));
    first.commit(Map.of("a", "1"), term("host-a"));
    WriterStamp firsts = stamp();

    ConditionalCheckpointStore second = daemon();
    refused(
        () -> second.claimEpoch(term("host-b")),
        "store_awaiting_stale_writer",
        location(object),
        "writer " + firsts.token() + " on host-a");
    assertThat(stamp()).isEqualTo(firsts); // the newcomer wrote nothing

    clock.advance(WriterLiveness.HEARTBEAT);
    first.heartbeat(); // the first daemon is alive
    refused(
        () -> second.claimEpoch(term("host-b")),
        "store_locked",
        "another sf2loki instance is running on " + location(object),
        "writer " + firsts.token() + " on host-a",
        "run one instance per state object, or use a lease coordinator");
    refused(() -> second.commit(Map.of("b", "1"), term("host-b")), "store_locked");

    first.commit(Map.of("a", "2"), term("host-a"));
    assertThat(reader().loadAll()).containsEntry("a", "2").doesNotContainKey("b");
    assertThat(stamp().token()).isEqualTo(firsts.token());
  }

  @Test
  void theRunningDaemonRefreshesItsStampEveryHeartbeatWhileItCommitsNothing() {
    ConditionalCheckpointStore daemon = daemon();
    daemon.claimEpoch(term("host-a"));
    assertThat(beating).hasValue(1);
    daemon.commit(Map.of("a", "1"), term("host-a"));
    WriterStamp committed = stamp();

    clock.advance(Duration.ofSeconds(4));
    daemon.heartbeat(); // a commit stamped it within half a heartbeat: no write
    assertThat(stamp()).isEqualTo(committed);

    clock.advance(Duration.ofSeconds(6));
    daemon.heartbeat();
    assertThat(stamp().heartbeat()).contains(START.plusSeconds(10));
    assertThat(reader().loadAll()).containsEntry("a", "1");
  }

  @Test
  void aRestartAfterACrashWaitsUntilTheStampIsStaleThenTakesOverKeepingARepair() {
    ConditionalCheckpointStore crashed = daemon();
    crashed.claimEpoch(term("host-a"));
    crashed.commit(Map.of("a", "1"), term("host-a"));

    ConditionalCheckpointStore restarted = daemon();
    refused(() -> restarted.claimEpoch(term("host-a")), "store_awaiting_stale_writer");
    // sf2loki-cli state set while it waits: unfenced, it keeps the stamp (no renewal)
    daemon().commit(Map.of("b", "operator"), Fence.NONE);
    clock.advance(WriterLiveness.WINDOW.minusSeconds(1));
    refused(() -> restarted.claimEpoch(term("host-a")), "store_awaiting_stale_writer");

    clock.advance(Duration.ofSeconds(1));
    restarted.claimEpoch(term("host-a"));
    restarted.commit(Map.of("a", "2"), term("host-a"));

    assertThat(reader().loadAll()).containsEntry("a", "2").containsEntry("b", "operator");
    refused(
        () -> crashed.commit(Map.of("a", "stale"), term("host-a")),
        "store_locked",
        "another sf2loki instance took " + location(object) + " over");
    assertThat(reader().loadAll()).containsEntry("a", "2");
  }

  @Test
  void anOperatorsRepairWhileTheDaemonRunsIsMergedIntoItsNextCommitAndHeartbeat() {
    ConditionalCheckpointStore daemon = daemon();
    daemon.commit(Map.of("a", "1"), term("host-a")); // takes the object at its first write
    daemon().commit(Map.of("b", "operator"), Fence.NONE);

    daemon.commit(Map.of("a", "2"), term("host-a"));
    daemon().commit(Map.of("c", "operator"), Fence.NONE);
    clock.advance(WriterLiveness.HEARTBEAT);
    daemon.heartbeat();

    assertThat(reader().loadAll())
        .containsEntry("a", "2")
        .containsEntry("b", "operator")
        .containsEntry("c", "operator");
    assertThat(stamp().heartbeat()).contains(START.plus(WriterLiveness.HEARTBEAT));
    assertThat(metrics.find("sf2loki_checkpoint_commit_failures").counter()).isNull();
  }

  @Test
  void aGracefulStopReleasesTheObjectSoARestartStartsAtOnce() {
    ConditionalCheckpointStore stopped = daemon();
    stopped.claimEpoch(term("host-a"));
    stopped.commit(Map.of("a", "1"), term("host-a"));
    stopped.close();
    assertThat(beating).hasValue(0);
    assertThat(reader().loadAll()).containsOnly(Map.entry("a", "1"));

    daemon().claimEpoch(term("host-a"));
    assertThat(reader().loadAll()).containsEntry("a", "1");
  }

  @Test
  void aStampWhoseHeartbeatIsLongPastIsTakenOverAtOnce() {
    daemon().claimEpoch(term("host-a"));
    clock.advance(WriterLiveness.EXPIRED);

    ConditionalCheckpointStore restarted = daemon();
    restarted.claimEpoch(term("host-b"));

    assertThat(stamp().holder()).isEqualTo("host-b");
  }

  @Test
  void anOlderSf2lokisBareTokenLoadsAndIsTakenOverOnceItStayedUnchangedForTheWindow() {
    reader()
        .commit(Map.of("a", "1", CheckpointToken.RESERVED_WRITER_KEY, "6f1c-older"), Fence.NONE);

    ConditionalCheckpointStore upgraded = daemon();
    refused(
        () -> upgraded.claimEpoch(term("host-a")),
        "store_awaiting_stale_writer",
        "writer 6f1c-older, no heartbeat recorded");
    clock.advance(WriterLiveness.WINDOW);
    upgraded.claimEpoch(term("host-a"));

    assertThat(reader().loadAll()).containsEntry("a", "1");
    assertThat(stamp().holder()).isEqualTo("host-a");
  }

  @Test
  void aDaemonWhoseObjectWasTakenOverStopsItsHeartbeatAndWritesNoMore() {
    ConditionalCheckpointStore paused = daemon();
    paused.claimEpoch(term("host-a"));
    ConditionalCheckpointStore newcomer = daemon();
    refused(() -> newcomer.claimEpoch(term("host-b")), "store_awaiting_stale_writer");
    clock.advance(WriterLiveness.WINDOW);
    newcomer.claimEpoch(term("host-b"));
    WriterStamp newcomers = stamp();

    paused.heartbeat(); // does not throw: counted, logged, and the heartbeat stops
    assertThat(
            metrics
                .find("sf2loki_checkpoint_heartbeat_failures")
                .tag("reason", "locked")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(beating).hasValue(1); // the newcomer's
    refused(
        () -> paused.commit(Map.of("a", "late"), term("host-a")),
        "store_locked",
        "writer " + newcomers.token() + " on host-b");
    assertThat(stamp()).isEqualTo(newcomers);
    assertThat(reader().loadAll()).doesNotContainKey("a");
  }

  /**
   * Through the engine, as the daemon starts: the second daemon backs off while it watches the
   * first's stamp (readiness shows why), then, the stamp renewed, ends with {@code store_locked}
   * naming the object and the first daemon, which runs on.
   */
  @Test
  void aSecondDaemonsEngineEndsWithStoreLockedWhileTheFirstRunsOn() throws Exception {
    ConditionalCheckpointStore first = daemon();
    first.claimEpoch(term("host-a"));
    WriterStamp firsts = stamp();

    try (ConditionalCheckpointStore second = daemon();
        AcquireRun run = AcquireRun.alwaysLeader(second, AcquireRun.FAST)) {
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> run.failures("transient", "store_awaiting_stale_writer") > 0);
      clock.advance(WriterLiveness.HEARTBEAT);
      first.heartbeat();

      assertThat(run.outcome())
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure().reason()).isEqualTo("store_locked");
                assertThat(f.failure().resource()).isEqualTo(location(object));
                assertThat(f.describe()).contains("writer " + firsts.token() + " on host-a");
                assertThat(f.attempts()).isEqualTo(3);
              });
    }
    first.commit(Map.of("a", "1"), term("host-a"));
    assertThat(reader().loadAll()).containsEntry("a", "1");
    assertThat(stamp().token()).isEqualTo(firsts.token());
  }
}
