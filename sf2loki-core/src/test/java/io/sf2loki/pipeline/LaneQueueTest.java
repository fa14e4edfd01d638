package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.BatcherTest.line;
import static io.sf2loki.pipeline.BatcherTest.marker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LaneQueueTest {

  static CompletableFuture<Void> putAsync(LaneQueue q, LogEntry e) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            q.put(e);
          } catch (InterruptedException ex) {
            throw new IllegalStateException(ex);
          }
        });
  }

  @Test
  void producerBlocksAtTheEntryBoundUntilTheConsumerTakes() throws Exception {
    LaneQueue q = new LaneQueue(2, 0);
    q.put(line("a"));
    q.put(line("b"));

    CompletableFuture<Void> third = putAsync(q, line("c"));

    assertThat(third).isNotDone();
    await()
        .during(Duration.ofMillis(200))
        .atMost(TestTiming.seconds(10))
        .until(() -> !third.isDone());
    assertThat(q.poll(0).line()).isEqualTo("a");
    third.get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
    assertThat(q.size()).isEqualTo(2);
  }

  /** Fills {@code q} (bound 4) and starts a fifth put, returned once it is parked. */
  static CompletableFuture<Void> fullWithAParkedProducer(LaneQueue q) throws Exception {
    for (String s : new String[] {"a", "b", "c", "d"}) {
      q.put(line(s));
    }
    CompletableFuture<Void> fifth = putAsync(q, line("e"));
    await().atMost(TestTiming.seconds(5)).until(q::hasWaitingProducers);
    return fifth;
  }

  @Test
  void aBlockedProducerIsWokenOnceTheLaneDrainsToHalfNotOnEveryPoll() throws Exception {
    LaneQueue q = new LaneQueue(4, 0);
    CompletableFuture<Void> fifth = fullWithAParkedProducer(q);

    q.poll(0); // 3 left: above half, the producer stays parked
    assertThat(q.hasWaitingProducers()).isTrue();
    q.poll(0); // 2 left: half, the producer is woken

    assertThat(q.hasWaitingProducers()).isFalse();
    fifth.get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
    assertThat(q.size()).isEqualTo(3);
  }

  @Test
  void wakeProducersLetsABlockedProducerUseRoomAboveTheMark() throws Exception {
    LaneQueue q = new LaneQueue(4, 0);
    CompletableFuture<Void> fifth = fullWithAParkedProducer(q);
    q.poll(0); // 3 left: above half, the producer stays parked

    q.wakeProducers(); // the consumer is about to stop polling

    fifth.get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
    assertThat(q.size()).isEqualTo(4);
  }

  @Test
  void producerBlocksAtTheByteBudget() throws Exception {
    LaneQueue q = new LaneQueue(100, 500);
    q.put(line("x".repeat(500)));

    CompletableFuture<Void> next = putAsync(q, line("y"));

    await()
        .during(Duration.ofMillis(200))
        .atMost(TestTiming.seconds(10))
        .until(() -> !next.isDone());
    q.poll(0);
    next.get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
  }

  @Test
  void entryLargerThanTheWholeBudgetIsAdmittedIntoAnEmptyLane() throws Exception {
    LaneQueue q = new LaneQueue(100, 100);

    putAsync(q, line("z".repeat(10_000)))
        .get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);

    assertThat(q.bytes()).isGreaterThan(10_000);
  }

  @Test
  void checkpointOnlyEntriesAreFreeForTheByteBudget() throws Exception {
    LaneQueue q = new LaneQueue(100, 10);
    q.put(marker("a"));
    q.put(marker("b"));

    assertThat(q.bytes()).isZero();
    putAsync(q, line("fits")).get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
  }

  @Test
  void closedLaneDrainsThenReportsEnd() throws Exception {
    LaneQueue q = new LaneQueue(10, 0);
    q.put(line("last"));
    q.close();

    assertThat(q.poll(0).line()).isEqualTo("last");
    assertThat(q.poll(TimeUnit.SECONDS.toNanos(5))).isSameAs(LaneQueue.END);
  }

  @Test
  void pollTimesOutWithNullWhenNothingArrives() throws Exception {
    assertThat(new LaneQueue(10, 0).poll(TimeUnit.MILLISECONDS.toNanos(20))).isNull();
  }

  @Test
  void abortWakesABlockedProducerWithInterruptedException() throws Exception {
    LaneQueue q = new LaneQueue(1, 0);
    q.put(line("a"));
    CompletableFuture<Void> blocked = putAsync(q, line("b"));
    await()
        .during(Duration.ofMillis(100))
        .atMost(TestTiming.seconds(10))
        .until(() -> !blocked.isDone());

    q.abort();

    assertThat(blocked)
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableOfType(ExecutionException.class)
        .withRootCauseInstanceOf(InterruptedException.class);
  }

  @Test
  void aBatchPutAtTheBoundWaitsForRoomAndArrivesWholeAndInOrder() throws Exception {
    LaneQueue q = new LaneQueue(2, 0);
    CompletableFuture<Void> batch =
        CompletableFuture.runAsync(
            () -> {
              try {
                q.putAll(List.of(line("a"), line("b"), line("c"), line("d"), line("e")));
              } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
              }
            });

    List<String> taken = new ArrayList<>();
    while (taken.size() < 5) {
      LogEntry e = q.poll(TestTiming.seconds(5).toNanos()); // woken by the batch's signals
      assertThat(e).isNotNull();
      assertThat(q.size()).isLessThanOrEqualTo(2);
      taken.add(e.line());
    }

    batch.get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
    assertThat(taken).containsExactly("a", "b", "c", "d", "e");
  }

  @Test
  void anAbortWhileABatchWaitsKeepsWhatWasAlreadyAdmitted() throws Exception {
    LaneQueue q = new LaneQueue(2, 0);
    CompletableFuture<Void> batch =
        CompletableFuture.runAsync(
            () -> {
              try {
                q.putAll(List.of(line("a"), line("b"), line("c")));
              } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
              }
            });
    await().atMost(TestTiming.seconds(5)).until(q::hasWaitingProducers);

    q.abort();

    assertThatThrownBy(() -> batch.get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS))
        .hasCauseInstanceOf(IllegalStateException.class);
    assertThat(q.size()).isEqualTo(2);
  }
}
