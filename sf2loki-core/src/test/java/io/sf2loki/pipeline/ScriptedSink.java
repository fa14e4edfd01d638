package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.PermanentSinkException;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Sink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.function.Predicate;

/**
 * A sink that records delivered entries and can be scripted: stall pushes matching a predicate
 * until released, fail the next pushes retryably, or reject batches permanently.
 */
public final class ScriptedSink implements Sink {

  private final List<LogEntry> delivered = new CopyOnWriteArrayList<>();
  private final List<Batch> attempts = new CopyOnWriteArrayList<>();
  private final List<Batch> prepared = new CopyOnWriteArrayList<>();
  private final Semaphore gate = new Semaphore(0);
  private volatile Predicate<Batch> stall = b -> false;
  private volatile int retryableFailures;
  private volatile String permanentReason;

  /** Pushes whose batch matches block until {@link #release()}. */
  public ScriptedSink stallWhen(Predicate<Batch> predicate) {
    this.stall = predicate;
    return this;
  }

  /** Stops stalling and wakes stalled pushes. */
  public void release() {
    stall = b -> false;
    gate.release(1000);
  }

  public ScriptedSink failRetryably(int times) {
    this.retryableFailures = times;
    return this;
  }

  public ScriptedSink rejectPermanently(String reason) {
    this.permanentReason = reason;
    return this;
  }

  public List<LogEntry> delivered() {
    return List.copyOf(delivered);
  }

  public List<String> lines() {
    return delivered.stream().map(LogEntry::line).toList();
  }

  public List<Batch> attempts() {
    return List.copyOf(attempts);
  }

  /** The batches the pipeline prepared, in order. */
  public List<Batch> prepared() {
    return List.copyOf(prepared);
  }

  @Override
  public void prepare(Batch batch) {
    prepared.add(batch);
  }

  @Override
  public void push(Batch batch)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    attempts.add(batch);
    while (stall.test(batch)) {
      gate.acquire();
    }
    synchronized (this) {
      if (retryableFailures > 0) {
        retryableFailures--;
        throw new RetryableSinkException("scripted 503", 503, null, null);
      }
    }
    if (permanentReason != null) {
      throw new PermanentSinkException("scripted rejection", permanentReason, 400, null);
    }
    delivered.addAll(batch.deliverable());
  }
}
