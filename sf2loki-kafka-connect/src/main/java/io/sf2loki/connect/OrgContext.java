package io.sf2loki.connect;

import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.spi.StopSignal;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What one org's sources are offered inside a task: their entries become records on the task's
 * queue, their resume positions are the offsets Connect committed for the org's partitions (which,
 * as the daemon's store, advance only after the producer's acks).
 */
final class OrgContext implements SourceContext {

  /** How often a source blocked on a full queue looks at the stop signal. */
  private static final Duration STOP_CHECK = Duration.ofMillis(100);

  private final String org;
  private final String topic;
  private final RecordFormat format;
  private final RecordQueue queue;
  private final Function<Map<String, String>, Map<String, Object>> offsets;
  private final StopSignal stop;

  /**
   * @param offsets the committed offset of a source partition, or null (Connect's {@code
   *     OffsetStorageReader#offset})
   * @param stop the signal of this run of the org's sources
   */
  OrgContext(
      String org,
      String topic,
      RecordFormat format,
      RecordQueue queue,
      Function<Map<String, String>, Map<String, Object>> offsets,
      StopSignal stop) {
    this.org = org;
    this.topic = topic;
    this.format = format;
    this.queue = queue;
    this.offsets = offsets;
    this.stop = stop;
  }

  @Override
  public void emit(LogEntry entry) throws InterruptedException {
    var record = EntryRecords.of(org, topic, entry, format);
    boolean endsUnit = entry.endsUnit();
    while (!queue.offer(record, endsUnit, this, STOP_CHECK)) {
      if (stop.isStopRequested()) {
        throw new InterruptedException("the task is stopping");
      }
    }
  }

  /**
   * Called once this run's sources have all ended: a unit one of them was inside (stopped or failed
   * mid-file) no longer holds the queue.
   */
  void endRun() {
    queue.endRun(this);
  }

  @Override
  public void abandonUnit() {
    queue.abandonUnit();
  }

  /**
   * The token committed for {@code key}: under the partition as this connector writes it, else
   * under the field order an earlier build may have written ({@link
   * EntryRecords#partitionKeyFirst}).
   */
  @Override
  public Optional<String> checkpoint(String key) {
    Optional<String> token = EntryRecords.token(offsets.apply(EntryRecords.partition(org, key)));
    return token.isPresent()
        ? token
        : EntryRecords.token(offsets.apply(EntryRecords.partitionKeyFirst(org, key)));
  }

  @Override
  public boolean stopRequested() {
    return stop.isStopRequested();
  }

  @Override
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return stop.awaitStop(timeout);
  }
}
