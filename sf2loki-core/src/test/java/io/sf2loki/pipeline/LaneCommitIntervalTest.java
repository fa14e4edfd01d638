package io.sf2loki.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.model.Batch;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code state.streaming_commit_interval}: a lane's checkpoint writes start at least that long
 * apart, each taking everything delivered meanwhile; a delivery stage waiting for room and the end
 * of the lane do not wait for it.
 */
@Timeout(60)
class LaneCommitIntervalTest {

  private static final Duration AN_HOUR = Duration.ofHours(1);

  private final List<Map<String, String>> writes = new CopyOnWriteArrayList<>();
  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;
  private final CountDownLatch firstWriteMayEnd = new CountDownLatch(1);
  private LaneCommits commits;

  private LaneCommits commits(int maxQueuedEntries, Duration interval) {
    commits =
        new LaneCommits(
            Thread::new,
            "test-commit",
            u -> {
              writes.add(Map.copyOf(u.updates()));
              if (writes.size() == 1) {
                awaitUninterruptibly(firstWriteMayEnd); // the batches after it queue meanwhile
              }
              return true;
            },
            u -> {},
            maxQueuedEntries,
            ticker,
            interval);
    return commits;
  }

  @AfterEach
  void closeCommits() {
    firstWriteMayEnd.countDown();
    if (commits != null) {
      commits.close();
    }
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Ten entries whose checkpoint is {@code key} = 0..9. */
  private static Batch batch(String key) {
    return new Batch(IntStream.range(0, 10).mapToObj(i -> Runs.keyed("pubsub", key, i)).toList());
  }

  /** a is written, and b and c are queued while a's write is in flight; then a's write ends. */
  private void aWrittenWhileBAndCQueue(LaneCommits lane) throws InterruptedException {
    assertThat(lane.start(batch("a"))).isTrue();
    await().atMost(TestTiming.seconds(10)).until(() -> writes.size() == 1);
    assertThat(lane.start(batch("b"))).isTrue();
    assertThat(lane.start(batch("c"))).isTrue();
    firstWriteMayEnd.countDown();
  }

  @Test
  void batchesDeliveredWithinTheIntervalWaitForItsEnd() throws Exception {
    aWrittenWhileBAndCQueue(commits(1000, AN_HOUR));

    await()
        .during(TestTiming.millis(300))
        .atMost(TestTiming.seconds(10))
        .until(() -> writes.size() == 1);
  }

  @Test
  void theNextWriteStartsOnceTheIntervalSinceThePreviousWriteStartedHasPassed() throws Exception {
    LaneCommits lane = commits(1000, Duration.ofMillis(200));
    aWrittenWhileBAndCQueue(lane);
    nanos.addAndGet(Duration.ofMillis(200).toNanos()); // a's write took the whole interval

    await().atMost(TestTiming.seconds(10)).until(() -> writes.size() == 2);
    assertThat(writes.get(1)).isEqualTo(Map.of("b", "9", "c", "9"));
  }

  @Test
  void theEndOfTheLaneWritesEverythingQueuedWithoutWaitingForTheInterval() throws Exception {
    LaneCommits lane = commits(1000, AN_HOUR);
    aWrittenWhileBAndCQueue(lane);

    assertThat(lane.awaitPrevious()).isTrue();
    assertThat(writes).containsExactly(Map.of("a", "9"), Map.of("b", "9", "c", "9"));
  }

  @Test
  void aDeliveryStageWaitingForRoomIsNotKeptWaitingForTheInterval() throws Exception {
    // at most 25 delivered entries may wait for a write: after b and c (20), d does not fit
    LaneCommits lane = commits(25, AN_HOUR);
    aWrittenWhileBAndCQueue(lane);

    assertThat(lane.start(batch("d"))).isTrue(); // returns once b and c left for their write
    await().atMost(TestTiming.seconds(10)).until(() -> writes.size() >= 2);
    assertThat(writes.get(1)).isEqualTo(Map.of("b", "9", "c", "9"));
  }

  @Test
  void aZeroIntervalWritesAsSoonAsThePreviousWriteEnded() throws Exception {
    aWrittenWhileBAndCQueue(commits(1000, Duration.ZERO));

    await().atMost(TestTiming.seconds(10)).until(() -> writes.size() == 2);
    assertThat(writes.get(1)).isEqualTo(Map.of("b", "9", "c", "9"));
  }
}
