package io.sf2loki.connect;

import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.model.Batch;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.pipeline.egress.Admission;
import io.sf2loki.spi.PermanentSinkException;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 *
 * <p>{@code sink.loki.egress} admits every batch first ({@link SinkEgress}). A batch the day's
 * budget cannot take under {@code pause} stays waiting: the task pauses the partitions it came
 * from, looks at the budget again at least every {@link #HOLD_SLICE} (or at 00:00 UTC if sooner),
 * commits nothing past it, and pushes it and resumes them once the budget takes it. Under {@code
 * drop} it is counted and committed past.
 */
public final class LokiSinkTask extends SinkTask {

  private static final Logger LOG = LoggerFactory.getLogger(LokiSinkTask.class);

  /**
   * How long a held batch waits before the task looks again: short enough that a new day, or a
   * budget raised by a reconfiguration, is seen soon, and far within the consumer's poll limits.
   */
  static final Duration HOLD_SLICE = Duration.ofSeconds(30);

  private final List<PendingEntry> pending = new ArrayList<>();
  private final Map<TopicPartition, Long> bufferedUpTo = new HashMap<>();
  private Sink sink;
  private LaneConfig lanes;
  private Backoff backoff;
  private Clock clock;
  private SinkEgress egress;
  private int failuresInARow;
  private int unreadableInARow;
  private boolean holding;

  /** Partitions this task paused while the budget holds their entries. */
  private final Set<TopicPartition> paused = new HashSet<>();

  @Override
  public String version() {
    return BuildInfo.version();
  }

  @Override
  public void start(Map<String, String> props) {
    Sf2LokiConfig config;
    ConnectorSettings settings = ConnectorSettings.ofSink(props);
    try {
      config =
          settings
              .bind(getClass().getClassLoader(), ConnectEnvironment.variables())
              .first()
              .config(); // the sink section is every org's
    } catch (ConfigInvalidException e) {
      throw new ConnectException("invalid sf2loki configuration: " + e.getMessage(), e);
    }
    EngineEnvironment environment = ConnectEnvironment.forTask("loki-sink");
    sink = ConfiguredEngine.sink(config, environment);
    lanes = config.lanes();
    clock = environment.clock();
    backoff =
        Backoff.exponential(lanes.retryMinBackoff(), lanes.retryMaxBackoff(), environment.random());
    String group = settings.sinkGroup();
    Optional<CommittedOffsets> offsets =
        config.egress().hasBudget()
            ? Optional.of(new AdminOffsets(settings.egressAdmin(), group))
            : Optional.empty();
    egress =
        new SinkEgress(
            SinkEgress.perTask(config.egress(), settings.taskCount()),
            settings.taskCount(),
            offsets,
            group,
            environment,
            ConnectEnvironment.sleeper());
    SinkEgressMetrics.export(context, environment.metrics(), egress.metrics());
  }

  /** Partitions given to this task: their day's egress use is read before it pushes from them. */
  @Override
  public void open(Collection<TopicPartition> partitions) {
    egress.open(List.copyOf(partitions));
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
      SinkRecords.entry(record)
          .ifPresent(e -> pending.add(new PendingEntry(partition, record.kafkaOffset(), e)));
    }
    if (holding || pending.size() >= lanes.maxEntries()) {
      Optional<Instant> heldUntil = push();
      // commit what Loki stored now, not at the next offset.flush.interval.ms: a worker that
      // crashes then pushes again at most about one batch per partition
      context.requestCommit();
      if (heldUntil.isPresent()) {
        hold(heldUntil.get());
      } else {
        release();
      }
    }
  }

  /**
   * Stops consuming the partitions whose entries the budget holds, and returns: Connect keeps
   * polling (the group membership holds) and calls {@link #put} with nothing new, which looks at
   * the budget again. Throwing {@code RetriableException} instead would have Connect log an ERROR
   * with a stack trace at every look, for the hours until 00:00 UTC.
   */
  private void hold(Instant until) {
    Set<TopicPartition> held = new HashSet<>();
    for (PendingEntry p : pending) {
      if (!paused.contains(p.partition())) {
        held.add(p.partition());
      }
    }
    if (!held.isEmpty()) {
      context.pause(held.toArray(TopicPartition[]::new));
      paused.addAll(held);
    }
    Duration untilThen = Duration.between(clock.instant(), until);
    Duration wait = untilThen.compareTo(HOLD_SLICE) < 0 ? untilThen : HOLD_SLICE;
    context.timeout(Math.max(1, wait.toMillis()));
  }

  /** The budget takes what waited: the paused partitions are read again. */
  private void release() {
    if (!paused.isEmpty()) {
      context.resume(paused.toArray(TopicPartition[]::new));
      paused.clear();
    }
  }

  /**
   * Pushes what is waiting; Connect then commits, per partition, up to the first entry still
   * waiting (held by the budget), else {@code currentOffsets}, every record before which Loki has
   * now accepted, with the partition's day's egress use as the offset's metadata. When Loki does
   * not accept, nothing is committed this round.
   */
  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    try {
      push();
    } catch (RetriableException e) {
      return Map.of();
    }
    Map<TopicPartition, Long> firstWaiting = new HashMap<>();
    for (PendingEntry p : pending) {
      firstWaiting.merge(p.partition(), p.offset(), Math::min);
    }
    Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
    currentOffsets.forEach(
        (partition, current) -> {
          long offset = firstWaiting.getOrDefault(partition, current.offset());
          if (!egress.budgeted()) {
            out.put(partition, new OffsetAndMetadata(offset, current.metadata()));
          } else {
            // a partition whose use is not known yet commits nothing: it would reset the use
            egress
                .metadata(partition)
                .ifPresent(m -> out.put(partition, new OffsetAndMetadata(offset, m)));
          }
        });
    return out;
  }

  /**
   * Pushes every waiting entry the egress controls admit, each lane's in batches of {@code
   * sink.loki.batch.max_entries}.
   *
   * @return when a lane's entries wait for the budget, the instant it may take them
   */
  private Optional<Instant> push() {
    if (pending.isEmpty()) {
      return Optional.empty();
    }
    requireKnownUse();
    Optional<Instant> heldUntil = Optional.empty();
    for (Source.Lane lane : Source.Lane.values()) {
      while (true) {
        List<PendingEntry> chunk = nextChunk(lane);
        if (chunk.isEmpty()) {
          break;
        }
        Admission admission = admit(lane, chunk);
        if (admission instanceof Admission.Hold hold) {
          heldUntil = Optional.of(hold.until()); // the governor logged the pause, once
          break;
        }
        if (admission instanceof Admission.Drop) {
          egress.dropped(chunk);
        } else {
          pushOne(lane, chunk);
        }
        Set<PendingEntry> done = Collections.newSetFromMap(new IdentityHashMap<>());
        done.addAll(chunk);
        pending.removeIf(done::contains);
      }
    }
    holding = heldUntil.isPresent();
    return heldUntil;
  }

  /** The next at most {@code max_entries} waiting entries of {@code lane}, in order. */
  private List<PendingEntry> nextChunk(Source.Lane lane) {
    List<PendingEntry> chunk = new ArrayList<>();
    for (PendingEntry p : pending) {
      if (chunk.size() == lanes.maxEntries()) {
        break;
      }
      if (SinkEgress.lane(p.entry()) == lane) {
        chunk.add(p);
      }
    }
    return chunk;
  }

  /** The day's use must be known before the task pushes past it: it holds with backoff else. */
  private void requireKnownUse() {
    try {
      egress.requireKnownUse();
      unreadableInARow = 0;
    } catch (CommittedOffsets.Unreadable e) {
      throw unreadable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RetriableException("interrupted while reading the day's egress use", e);
    }
  }

  private Admission admit(Source.Lane lane, List<PendingEntry> chunk) {
    try {
      return egress.admit(lane, chunk);
    } catch (CommittedOffsets.Unreadable e) {
      throw unreadable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RetriableException("interrupted while waiting on the egress rate caps", e);
    }
  }

  /** Counted (by the read) and warned; the task holds for the lanes' backoff. */
  private RetriableException unreadable(CommittedOffsets.Unreadable e) {
    Duration wait = backoff.delay(++unreadableInARow);
    if (unreadableInARow == 1 || unreadableInARow % 10 == 0) {
      LOG.warn(
          "{}: the task does not push past a Loki daily byte budget whose use it cannot read;"
              + " trying again in {} ({} in a row, counted in the task's egress-budget-read-errors"
              + " metric)",
          e.getMessage(),
          wait,
          unreadableInARow);
    }
    context.timeout(wait.toMillis());
    return new RetriableException(e.getMessage(), e);
  }

  /** Pushes one admitted chunk; a retryable failure leaves it waiting. */
  private void pushOne(Source.Lane lane, List<PendingEntry> chunk) {
    try {
      sink.push(new Batch(chunk.stream().map(PendingEntry::entry).toList()));
      failuresInARow = 0;
      egress.pushed(lane, chunk);
    } catch (RetryableSinkException e) {
      Duration own = backoff.delay(++failuresInARow);
      Duration wait =
          e.retryAfter().map(r -> Backoff.honouring(own, r, lanes.maxRetryAfter())).orElse(own);
      LOG.warn(
          "Loki did not accept {} entries ({}); retrying in {} ({} in a row)",
          chunk.size(),
          e.getMessage(),
          wait,
          failuresInARow);
      context.timeout(wait.toMillis());
      throw new RetriableException(e.getMessage(), e);
    } catch (PermanentSinkException e) {
      // the Loki sink has counted (and dead-lettered, when configured) what it could not take
      LOG.error("Loki refused {} entries for good: {}", chunk.size(), e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RetriableException("interrupted while pushing to Loki", e);
    }
  }

  /** Partitions moved to another task: what waits from them is read again there. */
  @Override
  public void close(Collection<TopicPartition> partitions) {
    pending.removeIf(p -> partitions.contains(p.partition()));
    partitions.forEach(bufferedUpTo::remove);
    paused.removeAll(partitions);
    egress.close(List.copyOf(partitions));
  }

  @Override
  public void stop() {
    if (egress != null) {
      egress.close();
    }
    if (sink instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("closing the Loki sink failed: {}", e.getMessage());
      }
    }
  }
}
