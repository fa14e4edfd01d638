package io.sf2loki.source.pubsub;

import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SourceContext} for the threaded Pub/Sub source on real time: records entries and commits
 * each token as it is emitted (Loki accepting everything at once), until {@link #stop()}.
 */
final class StreamingContext implements SourceContext {

  private final Map<String, String> committed;
  private final List<LogEntry> entries = new ArrayList<>();
  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile boolean commit = true;
  private volatile int holdAfter = Integer.MAX_VALUE;
  private final CountDownLatch released = new CountDownLatch(1);

  StreamingContext(Map<String, String> committed) {
    this.committed = new ConcurrentHashMap<>(committed);
  }

  @Override
  public void emit(LogEntry entry) throws InterruptedException {
    if (size() >= holdAfter) {
      released.await(); // a full lane: emit blocks until the test releases it
    }
    record(entry);
  }

  private synchronized void record(LogEntry entry) {
    entries.add(entry);
    if (commit) {
      entry.checkpoint().ifPresent(t -> committed.put(t.key(), t.value()));
    }
  }

  private synchronized int size() {
    return entries.size();
  }

  /** Once {@code n} entries were emitted, further emits block until {@link #release()}. */
  void holdAfter(int n) {
    holdAfter = n;
  }

  /** Unblocks the emits {@link #holdAfter} holds, for good. */
  void release() {
    released.countDown();
  }

  /** From now on entries are recorded but nothing more is committed (Loki stops accepting). */
  void stopCommitting() {
    commit = false;
  }

  @Override
  public Optional<String> checkpoint(String key) {
    return Optional.ofNullable(committed.get(key));
  }

  @Override
  public boolean stopRequested() {
    return stop.getCount() == 0;
  }

  @Override
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return stop.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  void stop() {
    stop.countDown();
  }

  synchronized List<LogEntry> lines() {
    return entries.stream().filter(e -> !e.isCheckpointOnly()).toList();
  }

  synchronized List<LogEntry> entries() {
    return List.copyOf(entries);
  }

  Map<String, String> committed() {
    return Map.copyOf(committed);
  }
}
