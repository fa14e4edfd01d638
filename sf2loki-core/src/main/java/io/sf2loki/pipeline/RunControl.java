package io.sf2loki.pipeline;

import io.sf2loki.spi.StopTrigger;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The shared state of one run: the graceful stop (sources end, lanes drain), the abort (everything
 * ends now), the first terminal outcome, and the events the owner thread waits on. Thread-safe.
 */
final class RunControl {

  /** What wakes the owner thread. */
  enum Event {
    STOP,
    WORKER_DONE,
    ABORT
  }

  private final StopTrigger stop = new StopTrigger();
  private final StopTrigger abort = new StopTrigger();
  private final AtomicBoolean externalStop = new AtomicBoolean();
  private final AtomicReference<PipelineOutcome> terminal = new AtomicReference<>();
  private final AtomicInteger abandoned = new AtomicInteger();
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

  /** The owner asked for a graceful stop. */
  void requestStop() {
    externalStop.set(true);
    stopSources();
  }

  private void stopSources() {
    if (!stop.isStopRequested()) {
      stop.requestStop();
      events.add(Event.STOP);
    }
  }

  /** A fenced or conflicting commit: end now, report lost leadership. */
  void lostLeadership(String reason) {
    terminal.compareAndSet(null, new PipelineOutcome.LostLeadership(reason));
    abort();
  }

  /** A failure that makes further work pointless (commit error, broken lane): end now. */
  void fail(Throwable cause) {
    terminal.compareAndSet(null, new PipelineOutcome.Failed(cause));
    abort();
  }

  /** A source failed: stop the others gracefully, drain, report the failure. */
  void sourceFailed(Throwable cause) {
    terminal.compareAndSet(null, new PipelineOutcome.Failed(cause));
    stopSources();
  }

  /** Ends everything now: waits wake, lanes are torn down by the owner. */
  void abort() {
    stopSources();
    if (!abort.isStopRequested()) {
      abort.requestStop();
      events.add(Event.ABORT);
    }
  }

  void workerDone() {
    events.add(Event.WORKER_DONE);
  }

  void abandoned() {
    abandoned.incrementAndGet();
  }

  boolean isStopping() {
    return stop.isStopRequested();
  }

  boolean isAborted() {
    return abort.isStopRequested();
  }

  /** Waits up to {@code timeout} for a graceful stop; true when one was requested. */
  boolean awaitStop(Duration timeout) throws InterruptedException {
    return stop.awaitStop(timeout);
  }

  /** Waits up to {@code timeout} for an abort; true when aborted. */
  boolean awaitAbort(Duration timeout) throws InterruptedException {
    return abort.awaitStop(timeout);
  }

  /** The next event, or null after {@code timeoutNanos}. */
  Event nextEvent(long timeoutNanos) throws InterruptedException {
    return events.poll(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  /** The outcome once every thread has ended. */
  PipelineOutcome outcome() {
    PipelineOutcome t = terminal.get();
    if (t != null) {
      return t;
    }
    return externalStop.get() || abort.isStopRequested()
        ? new PipelineOutcome.Stopped(abandoned.get())
        : new PipelineOutcome.Completed();
  }
}
