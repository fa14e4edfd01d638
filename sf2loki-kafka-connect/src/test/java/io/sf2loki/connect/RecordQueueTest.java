package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hand-over keeps each source unit's records together under exactly-once, so that a transaction
 * ending after a unit commits no row its offsets do not cover.
 */
class RecordQueueTest {

  private static final Duration NO_WAIT = Duration.ZERO;
  private final Object run = new Object();
  private final ExecutorService other = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopOther() {
    other.shutdownNow();
  }

  private static SourceRecord record(String value) {
    return new SourceRecord(null, null, "t", null, value);
  }

  private static List<Object> values(RecordQueue.Polled polled) {
    return polled.records().stream().map(SourceRecord::value).toList();
  }

  private CompletableFuture<Boolean> offerFromAnotherThread(
      RecordQueue queue, String value, boolean endsUnit, Object run, Duration timeout) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return queue.offer(record(value), endsUnit, run, timeout);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          }
        },
        other);
  }

  @Test
  void anotherEmitterWaitsUntilTheUnitInProgressEnds() throws Exception {
    RecordQueue queue = new RecordQueue(10, true);
    queue.offer(record("file-row-1"), false, run, NO_WAIT);

    assertThat(offerFromAnotherThread(queue, "page-end", true, run, NO_WAIT).get())
        .as("offered inside another emitter's unit")
        .isFalse();

    var waiting = offerFromAnotherThread(queue, "page-end", true, run, TestTiming.seconds(10));
    queue.offer(record("file-row-2"), false, run, NO_WAIT);
    queue.offer(record("file-last-row"), true, run, NO_WAIT);

    assertThat(waiting.get(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(values(queue.poll(NO_WAIT)))
        .containsExactly("file-row-1", "file-row-2", "file-last-row", "page-end");
  }

  @Test
  void aPollNamesItsLastRecordThatEndsAUnit() throws Exception {
    RecordQueue queue = new RecordQueue(10, true);
    queue.offer(record("row-1"), false, run, NO_WAIT);
    queue.offer(record("row-2"), true, run, NO_WAIT);
    queue.offer(record("next-row-1"), false, run, NO_WAIT);

    RecordQueue.Polled polled = queue.poll(NO_WAIT);

    assertThat(polled.lastUnitEnd()).isEqualTo(1);
  }

  @Test
  void aPollInsideOneUnitNamesNoEnd() throws Exception {
    RecordQueue queue = new RecordQueue(2, true);
    queue.offer(record("row-1"), false, run, NO_WAIT);
    queue.offer(record("row-2"), false, run, NO_WAIT);
    queue.offer(record("row-3"), true, run, NO_WAIT);

    assertThat(queue.poll(NO_WAIT).lastUnitEnd()).isEqualTo(-1);
    assertThat(queue.poll(NO_WAIT).lastUnitEnd()).isEqualTo(0);
  }

  @Test
  void aRunThatEndedInsideAUnitLetsTheOthersIn() throws Exception {
    RecordQueue queue = new RecordQueue(10, true);
    Object failed = new Object();
    offerFromAnotherThread(queue, "row-1 of a file never finished", false, failed, NO_WAIT).get();

    queue.endRun(failed);

    assertThat(queue.offer(record("page-end"), true, run, NO_WAIT)).isTrue();
  }

  @Test
  void theEndOfAnotherRunKeepsTheUnitInProgress() throws Exception {
    RecordQueue queue = new RecordQueue(10, true);
    offerFromAnotherThread(queue, "row-1", false, run, NO_WAIT).get();

    queue.endRun(new Object());

    assertThat(queue.offer(record("page-end"), true, new Object(), NO_WAIT)).isFalse();
  }

  @Test
  void anAbandonedUnitsQueuedRecordsAreDroppedAndTheOthersLetIn() throws Exception {
    RecordQueue queue = new RecordQueue(10, true);
    queue.offer(record("page-end"), true, run, NO_WAIT);
    queue.offer(record("file-row-1"), false, run, NO_WAIT);
    queue.offer(record("file-row-2"), false, run, NO_WAIT);

    queue.abandonUnit();

    assertThat(offerFromAnotherThread(queue, "next-page-end", true, run, NO_WAIT).get()).isTrue();
    RecordQueue.Polled polled = queue.poll(NO_WAIT);
    assertThat(values(polled)).containsExactly("page-end", "next-page-end");
    assertThat(polled.abortOpenTransaction()).isFalse();
  }

  @Test
  void anAbandonedUnitPolledIntoTheOpenTransactionAbortsItAtTheNextPoll() throws Exception {
    RecordQueue queue = new RecordQueue(2, true);
    queue.offer(record("page-end"), true, run, NO_WAIT);
    queue.offer(record("file-row-1"), false, run, NO_WAIT);
    queue.poll(NO_WAIT); // commits after page-end; file-row-1 opens the next transaction
    queue.offer(record("file-row-2"), false, run, NO_WAIT);

    queue.abandonUnit();

    RecordQueue.Polled next = queue.poll(NO_WAIT);
    assertThat(next.abortOpenTransaction()).isTrue();
    assertThat(next.records()).isEmpty();
    assertThat(queue.poll(NO_WAIT).abortOpenTransaction()).isFalse();
  }

  @Test
  void aThreadOutsideAUnitAbandonsNothing() throws Exception {
    RecordQueue queue = new RecordQueue(10, true);
    offerFromAnotherThread(queue, "file-row-1", false, run, NO_WAIT).get();

    queue.abandonUnit();

    assertThat(values(queue.poll(NO_WAIT))).containsExactly("file-row-1");
    assertThat(queue.offer(record("page-end"), true, run, NO_WAIT)).isFalse();
  }

  @Test
  void aRunEndingInsideAUnitDropsItsQueuedRecords() throws Exception {
    RecordQueue queue = new RecordQueue(10, true);
    Object stopped = new Object();
    offerFromAnotherThread(queue, "row-1 of a file never finished", false, stopped, NO_WAIT).get();

    queue.endRun(stopped);

    assertThat(queue.poll(NO_WAIT).records()).isEmpty();
  }

  @Test
  void withoutExactlyOnceEmittersInterleave() throws Exception {
    RecordQueue queue = new RecordQueue(10);
    queue.offer(record("file-row-1"), false, run, NO_WAIT);

    assertThat(offerFromAnotherThread(queue, "page-end", true, run, NO_WAIT).get()).isTrue();
  }

  @Test
  void aFullQueueTurnsAnOfferAwayAfterItsTimeout() throws Exception {
    RecordQueue queue = new RecordQueue(1);
    queue.offer(record("a"), true, run, NO_WAIT);
    queue.offer(record("b"), true, run, NO_WAIT);

    assertThat(queue.offer(record("c"), true, run, Duration.ofMillis(10))).isFalse();
    assertThat(values(queue.poll(NO_WAIT))).containsExactly("a");
  }
}
