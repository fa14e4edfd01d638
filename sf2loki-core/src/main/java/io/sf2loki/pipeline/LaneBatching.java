package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Source;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batching stage of one lane (its own thread): polls the lane queue, feeds the {@link Batcher}
 * and hands each due batch to the delivery stage through the {@link BatchHandoff}, after letting
 * the sink {@linkplain io.sf2loki.spi.Sink#prepare prepare} it (for Loki: shape and encode). It
 * runs while the delivery stage pushes the previous batch, so forming and encoding a batch overlap
 * the push round trip instead of adding to it.
 *
 * <p>Backpressure stays structural (invariant 4): while the delivery stage is busy with one batch
 * and the next one waits in the hand-off, this stage is blocked in {@link BatchHandoff#put}, stops
 * polling, the queue fills and producers block. When the queue ends, the last partial batch is
 * handed off and the hand-off closed. When the hand-off is aborted, the batch it gave back is
 * abandoned here (keys blocked, counted) and the stage ends; entries still in the batcher were
 * never formed into a batch and, like entries left in the queue, are simply not delivered.
 *
 * <p>An <em>adaptive</em> lane does not hold a batch for its flush interval when nothing is gained
 * by waiting (the linger of Kafka's producer, Nagle's rule): once the queue has nothing more to
 * give right now and the delivery stage is {@linkplain BatchHandoff#idle() idle}, the partial batch
 * goes at once, a single entry included. While a push is in flight, entries accumulate into one
 * batch, which goes when the delivery stage becomes idle (it wakes this stage through the queue),
 * when it fills, or when the flush interval runs out, whichever is first; so the interval is an
 * upper bound on the wait, and under a flood the queue is never found empty and batches still fill.
 * A batch that fills while a push is in flight is prepared and waits in the hand-off as before,
 * keeping the overlap.
 *
 * <p>An adaptive lane's <em>linger</em> ({@code sink.loki.batch.streaming_linger}) spaces its
 * partial batches under load: a partial batch goes no sooner than the linger after the previous
 * batch was handed off, so an event after a quiet spell still goes at once while a steady stream
 * forms fewer, larger pushes. At loopback speeds a push answered in a few hundred microseconds
 * otherwise left batches of about forty events at one subscription's ceiling, and each push's fixed
 * cost (a request, its answer, a commit) on both sides of the connection took the CPU the
 * subscription needed (docs/performance.md §4). A full batch never waits for it.
 */
final class LaneBatching implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(LaneBatching.class);
  private static final long MAX_IDLE_NANOS = Duration.ofSeconds(1).toNanos();

  private final Source.Lane lane;
  private final LaneQueue queue;
  private final Batcher batcher;
  private final BatchHandoff handoff;
  private final LaneProgress progress;
  private final LaneShared s;
  private final boolean adaptive;
  private final long lingerNanos;
  private boolean handedOff; // a batch was handed off: the linger counts from handedOffAt
  private long handedOffAt;

  /**
   * @param adaptive send a partial batch as soon as the lane is idle (see above) instead of holding
   *     it for the flush interval
   * @param linger on an adaptive lane, the least time between handing off a batch and a partial
   *     batch after it; zero sends whenever idle
   */
  LaneBatching(
      Source.Lane lane,
      LaneQueue queue,
      Batcher batcher,
      BatchHandoff handoff,
      LaneProgress progress,
      LaneShared shared,
      boolean adaptive,
      Duration linger) {
    this.adaptive = adaptive;
    this.lingerNanos = linger.toNanos();
    this.lane = lane;
    this.queue = queue;
    this.batcher = batcher;
    this.handoff = handoff;
    this.progress = progress;
    this.s = shared;
  }

  @Override
  public void run() {
    boolean ended = false;
    try {
      ended = consume();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // aborted; the owner reports the outcome
    } catch (Throwable e) {
      // An Error too (the snappy native library failing to load, an OutOfMemoryError while
      // encoding), or a checked exception a sink threw undeclared: without fail() the other stage
      // and the lane's producers would wait forever, or the run would end as if completed.
      LOG.error("{} lane batching failed", lane, e);
      s.control().fail(e);
      if (e instanceof Error error) {
        throw error;
      }
    } finally {
      if (ended) {
        handoff.close(); // the delivery stage ends after the last batch
      } else {
        handoff.abort(); // never leave the delivery stage waiting for a batch that cannot come
      }
      s.control().workerDone();
    }
  }

  /** True when the lane ended and every formed batch was handed off; false when aborted. */
  private boolean consume() throws InterruptedException {
    while (true) {
      Optional<Batch> due = batcher.pollDue(s.ticker().nanoTime());
      if (due.isPresent()) {
        if (!handOff(due.get())) {
          return false;
        }
        continue;
      }
      // Holding a partial batch for an idle delivery stage only adds latency: take what the queue
      // has right now (no wait) and send it once the queue is empty; within the linger, wait for
      // more until it ends.
      long before = s.ticker().nanoTime();
      boolean holding = adaptive && !batcher.isEmpty();
      long lingerLeft = handedOff ? handedOffAt + lingerNanos - before : 0;
      long wait =
          holding && handoff.idle() && lingerLeft <= 0
              ? 0
              : Math.min(batcher.nanosUntilDue(before), MAX_IDLE_NANOS);
      if (holding && lingerLeft > 0) {
        wait = Math.min(wait, lingerLeft);
      }
      LogEntry e = queue.poll(wait);
      long now = s.ticker().nanoTime();
      progress.beat(now); // an entry taken, or the queue found empty
      if (e == LaneQueue.END) {
        Optional<Batch> last = batcher.drain();
        return last.isEmpty() || handOff(last.get());
      }
      if (e != null) {
        Optional<Batch> full = batcher.add(e, now);
        if (full.isPresent() && !handOff(full.get())) {
          return false;
        }
      } else if (adaptive
          && !batcher.isEmpty()
          && handoff.idle()
          && (!handedOff || now - handedOffAt >= lingerNanos)) {
        // the queue is empty (or the delivery stage just went idle and woke this poll), and the
        // linger is over
        if (!handOff(batcher.drain().orElseThrow())) {
          return false;
        }
      }
    }
  }

  /**
   * Lets the sink prepare (shape and encode) {@code batch} — the costly part of a push, done here
   * while the delivery stage pushes the previous batch — then waits until the delivery stage took
   * it; false (batch abandoned) when aborted.
   */
  private boolean handOff(Batch batch) {
    // This stage stops polling until the hand-off takes the batch: producers blocked on a lane
    // that has room since they blocked must not wait for that (LaneQueue wakes them only at half).
    queue.wakeProducers();
    handedOff = true;
    handedOffAt = s.ticker().nanoTime();
    if (!batch.isCheckpointOnly()) {
      s.sink().prepare(batch);
    }
    if (handoff.put(batch)) {
      return true;
    }
    s.abandon(lane, batch, "waiting in the hand-off");
    return false;
  }
}
