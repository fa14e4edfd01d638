package io.sf2loki.connect;

import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.spi.PermanentSinkException;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Sink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes the topic's entries to Loki through sf2loki's Loki sink (its time-window planning, late
 * data policy, label guard and answers to 429 and Loki's errors) and lets Connect commit a record's
 * offset only once Loki has accepted it ({@link #preCommit}): Salesforce → Kafka → Loki keeps the
 * daemon's commit-after-push. A retryable push failure pauses the task for the lanes' backoff
 * ({@code sink.loki.retry.lane_*}) and Connect hands the same records again; they are not buffered
 * twice.
 */
public final class LokiSinkTask extends SinkTask {

  private static final Logger LOG = LoggerFactory.getLogger(LokiSinkTask.class);

  /** An entry waiting for Loki, and where it came from. */
  private record Pending(TopicPartition partition, LogEntry entry) {}

  private final List<Pending> pending = new ArrayList<>();
  private final Map<TopicPartition, Long> bufferedUpTo = new HashMap<>();
  private Sink sink;
  private LaneConfig lanes;
  private Backoff backoff;
  private int failuresInARow;

  @Override
  public String version() {
    return BuildInfo.version();
  }

  @Override
  public void start(Map<String, String> props) {
    Sf2LokiConfig config;
    try {
      config =
          ConnectorSettings.ofSink(props)
              .bind(getClass().getClassLoader(), ConnectEnvironment.variables())
              .first()
              .config(); // the sink section is every org's
    } catch (ConfigInvalidException e) {
      throw new ConnectException("invalid sf2loki configuration: " + e.getMessage(), e);
    }
    EngineEnvironment environment = ConnectEnvironment.forTask("loki-sink");
    sink = ConfiguredEngine.sink(config, environment);
    lanes = config.lanes();
    backoff =
        Backoff.exponential(lanes.retryMinBackoff(), lanes.retryMaxBackoff(), environment.random());
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    for (SinkRecord record : records) {
      TopicPartition partition = new TopicPartition(record.topic(), record.kafkaPartition());
      Long upTo = bufferedUpTo.get(partition);
      if (upTo != null && record.kafkaOffset() <= upTo) {
        continue; // handed again after a retryable failure: already waiting
      }
      bufferedUpTo.put(partition, record.kafkaOffset());
      SinkRecords.entry(record).ifPresent(e -> pending.add(new Pending(partition, e)));
    }
    if (pending.size() >= lanes.maxEntries()) {
      push();
      // commit what Loki stored now, not at the next offset.flush.interval.ms: a worker that
      // crashes then pushes again at most about one batch per partition
      context.requestCommit();
    }
  }

  /**
   * Pushes what is waiting; Connect then commits {@code currentOffsets}, every record of which Loki
   * has now accepted. When Loki does not accept, nothing is committed this round.
   */
  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    try {
      push();
    } catch (RetriableException e) {
      return Map.of();
    }
    return currentOffsets;
  }

  /** Pushes every waiting entry in batches of {@code sink.loki.batch.max_entries}. */
  private void push() {
    while (!pending.isEmpty()) {
      int size = Math.min(lanes.maxEntries(), pending.size());
      List<Pending> chunk = pending.subList(0, size);
      try {
        sink.push(new Batch(chunk.stream().map(Pending::entry).toList()));
        failuresInARow = 0;
      } catch (RetryableSinkException e) {
        Duration own = backoff.delay(++failuresInARow);
        Duration wait =
            e.retryAfter().map(r -> Backoff.honouring(own, r, lanes.maxRetryAfter())).orElse(own);
        LOG.warn(
            "Loki did not accept {} entries ({}); retrying in {} ({} in a row)",
            size,
            e.getMessage(),
            wait,
            failuresInARow);
        context.timeout(wait.toMillis());
        throw new RetriableException(e.getMessage(), e);
      } catch (PermanentSinkException e) {
        // the Loki sink has counted (and dead-lettered, when configured) what it could not take
        LOG.error("Loki refused {} entries for good: {}", size, e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RetriableException("interrupted while pushing to Loki", e);
      }
      chunk.clear();
    }
  }

  /** Partitions moved to another task: what waits from them is read again there. */
  @Override
  public void close(Collection<TopicPartition> partitions) {
    pending.removeIf(p -> partitions.contains(p.partition()));
    partitions.forEach(bufferedUpTo::remove);
  }

  @Override
  public void stop() {
    if (sink instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("closing the Loki sink failed: {}", e.getMessage());
      }
    }
  }
}
