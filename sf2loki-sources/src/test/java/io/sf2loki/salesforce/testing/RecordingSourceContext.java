package io.sf2loki.salesforce.testing;

import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * A {@link SourceContext} that records every entry, treats each token as delivered and committed at
 * once, and runs on simulated time: {@link #awaitStop} advances the clock by the wait and then asks
 * the stop condition.
 */
public final class RecordingSourceContext implements SourceContext {

  private final MutableClock clock;
  private final Map<String, String> committed;
  private final List<LogEntry> entries = new ArrayList<>();
  private final Predicate<RecordingSourceContext> stopWhen;
  private int waits;

  /**
   * @param committed the checkpoints the run starts from (copied; read back with {@link
   *     #committed()})
   * @param stopWhen asked after every wait
   */
  public RecordingSourceContext(
      MutableClock clock,
      Map<String, String> committed,
      Predicate<RecordingSourceContext> stopWhen) {
    this.clock = clock;
    this.committed = new ConcurrentHashMap<>(committed);
    this.stopWhen = stopWhen;
  }

  /** Stops after {@code n} waits. */
  public static Predicate<RecordingSourceContext> afterWaits(int n) {
    return ctx -> ctx.waits >= n;
  }

  @Override
  public synchronized void emit(LogEntry entry) {
    entries.add(entry);
    entry.checkpoint().ifPresent(t -> committed.put(t.key(), t.value()));
  }

  @Override
  public Optional<String> checkpoint(String key) {
    return Optional.ofNullable(committed.get(key));
  }

  @Override
  public boolean stopRequested() {
    return stopWhen.test(this);
  }

  @Override
  public boolean awaitStop(Duration timeout) {
    clock.advance(timeout);
    waits++;
    return stopWhen.test(this);
  }

  /** Every entry, checkpoint-only ones included. */
  public synchronized List<LogEntry> entries() {
    return List.copyOf(entries);
  }

  /** The entries Loki would receive. */
  public synchronized List<LogEntry> lines() {
    return entries.stream().filter(e -> !e.isCheckpointOnly()).toList();
  }

  /** The committed checkpoints. */
  public Map<String, String> committed() {
    return Map.copyOf(committed);
  }

  /** Waits so far. */
  public int waits() {
    return waits;
  }

  /** The clock. */
  public MutableClock clock() {
    return clock;
  }

  /** Copies for assertions that need a mutable list. */
  public synchronized List<LogEntry> snapshot() {
    return new ArrayList<>(entries);
  }
}
