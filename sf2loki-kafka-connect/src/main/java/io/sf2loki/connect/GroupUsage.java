package io.sf2loki.connect;

import io.micrometer.core.instrument.Counter;
import io.sf2loki.pipeline.egress.DailyUsage;
import io.sf2loki.pipeline.egress.EgressMetrics;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink connector's day's egress use, one budget across its tasks, kept where Connect keeps a
 * sink's state: each partition's committed offset carries, as its metadata, the {@link DailyUsage}
 * of the line bytes Loki stored from that partition on that UTC day. The connector's use is the sum
 * over the group's partitions of today's values.
 *
 * <p>A task counts its own partitions live (the committed value when it was given them, plus what
 * it pushed since) and reads the others' from the group's offsets, at most every {@code every}
 * unless asked to: another task's bytes since its last commit are what this count can miss. Not
 * thread-safe (the task's thread).
 */
final class GroupUsage {

  private static final Logger LOG = LoggerFactory.getLogger(GroupUsage.class);

  /** What one committed offset's metadata says about its partition's use. */
  sealed interface Stored {
    /** No use recorded today: no metadata, another tool's, or another day's. */
    record None() implements Stored {}

    /** Today's use. */
    record Today(long bytes) implements Stored {}

    /** Metadata that is not a day's use: warned, counted, taken as 0. */
    record Malformed(TopicPartition partition, String value, String problem) implements Stored {}
  }

  private final CommittedOffsets offsets;
  private final String group;
  private final Clock clock;
  private final Ticker ticker;
  private final Duration every;
  private final EgressMetrics metrics;
  private final Counter readErrors;
  private final Map<TopicPartition, DailyUsage> own = new HashMap<>();
  private final Map<TopicPartition, Long> ownCommitted = new HashMap<>();
  private final Set<TopicPartition> unread = new HashSet<>();
  private final Map<TopicPartition, String> warnedMalformed = new HashMap<>();
  private DailyUsage others;
  private long readAt;
  private boolean readOnce;
  private boolean failing;

  /**
   * @param every how stale the others' use may get before a read
   * @param readErrors counts failed reads
   */
  GroupUsage(
      CommittedOffsets offsets,
      String group,
      Clock clock,
      Ticker ticker,
      Duration every,
      EgressMetrics metrics,
      Counter readErrors) {
    this.offsets = offsets;
    this.group = group;
    this.clock = clock;
    this.ticker = ticker;
    this.every = every;
    this.metrics = metrics;
    this.readErrors = readErrors;
    this.others = new DailyUsage(today(), 0);
  }

  /** Partitions given to the task: their use is read from their committed offsets first. */
  void open(Collection<TopicPartition> partitions) {
    for (TopicPartition p : partitions) {
      if (!own.containsKey(p)) {
        unread.add(p);
      }
    }
  }

  /** Partitions taken away: their use is another task's now. */
  void close(Collection<TopicPartition> partitions) {
    partitions.forEach(own::remove);
    partitions.forEach(ownCommitted::remove);
    unread.removeAll(partitions);
  }

  /** True when every partition of the task has its use: the task may push. */
  boolean known() {
    return unread.isEmpty();
  }

  /**
   * Reads the group's offsets when {@code force}d, when a partition's use is not known yet, or when
   * the last read is older than {@code every}. A failed read keeps the last known use, is counted
   * and warned of once until a read succeeds.
   *
   * @throws CommittedOffsets.Unreadable when a partition's use is not known and cannot be read: the
   *     task must not push past a budget it cannot read
   */
  void refresh(boolean force) throws CommittedOffsets.Unreadable, InterruptedException {
    if (!force && known() && readOnce && ticker.nanoTime() - readAt < every.toNanos()) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> committed;
    try {
      committed = offsets.read();
    } catch (CommittedOffsets.Unreadable e) {
      readErrors.increment();
      if (!known()) {
        throw e;
      }
      if (!failing) {
        failing = true;
        LOG.warn(
            "{}; the Loki daily byte budget goes on with the last known use of the other tasks"
                + " ({} bytes today) until a read succeeds (counted in the task's"
                + " egress-budget-read-errors metric)",
            e.getMessage(),
            others.bytes());
      }
      return;
    }
    if (failing) {
      failing = false;
      LOG.info("consumer group {}'s offsets read again: the day's egress use is current", group);
    }
    readAt = ticker.nanoTime();
    readOnce = true;
    LocalDate today = today();
    long sum = 0;
    ownCommitted.clear();
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      long bytes = bytes(stored(e.getKey(), e.getValue().metadata(), today));
      if (unread.remove(e.getKey())) {
        own.put(e.getKey(), new DailyUsage(today, bytes));
        ownCommitted.put(e.getKey(), bytes);
      } else if (own.containsKey(e.getKey())) {
        ownCommitted.put(e.getKey(), bytes);
      } else {
        sum += bytes;
      }
    }
    for (TopicPartition p : unread) {
      own.put(p, new DailyUsage(today, 0)); // never committed: nothing stored from it yet
    }
    unread.clear();
    others = new DailyUsage(today, sum);
  }

  /** What {@code metadata}, committed for {@code partition}, says about its use {@code today}. */
  static Stored stored(TopicPartition partition, String metadata, LocalDate today) {
    if (metadata == null || metadata.isBlank()) {
      return new Stored.None();
    }
    try {
      DailyUsage usage = DailyUsage.parse(metadata);
      return usage.date().equals(today) ? new Stored.Today(usage.bytes()) : new Stored.None();
    } catch (IllegalArgumentException e) {
      return new Stored.Malformed(partition, metadata, e.getMessage());
    }
  }

  private long bytes(Stored stored) {
    if (stored instanceof Stored.Today today) {
      return today.bytes();
    }
    if (stored instanceof Stored.Malformed m
        && !m.value().equals(warnedMalformed.put(m.partition(), m.value()))) {
      metrics.loadError();
      LOG.warn(
          "{} of consumer group {}: the committed offset's metadata ('{}') is not a day's egress"
              + " use ({}); it counts as 0 bytes (counted in the task's egress-budget-load-errors"
              + " metric)",
          m.partition(),
          group,
          m.value().length() > 80 ? m.value().substring(0, 80) + "..." : m.value(),
          m.problem());
    }
    return 0;
  }

  /** Counts {@code lineBytes} Loki stored from {@code partition}. */
  void pushed(TopicPartition partition, long lineBytes) {
    DailyUsage current = ownToday(partition);
    own.put(partition, new DailyUsage(current.date(), current.bytes() + lineBytes));
  }

  /**
   * The bytes this task pushed today that its partitions' committed offsets, as last read, do not
   * carry yet: what the other tasks cannot see of its use.
   */
  long unconfirmed() {
    long sum = 0;
    for (TopicPartition p : own.keySet()) {
      sum += Math.max(0, ownToday(p).bytes() - ownCommitted.getOrDefault(p, 0L));
    }
    return sum;
  }

  /** The connector's use today: the others' as last read, this task's live. */
  DailyUsage total() {
    LocalDate today = today();
    long sum = others.date().equals(today) ? others.bytes() : 0;
    for (TopicPartition p : own.keySet()) {
      sum += ownToday(p).bytes();
    }
    return new DailyUsage(today, sum);
  }

  /** The metadata to commit with {@code partition}'s offset; empty while its use is not known. */
  Optional<String> metadata(TopicPartition partition) {
    if (!own.containsKey(partition)) {
      return Optional.empty();
    }
    return Optional.of(ownToday(partition).toJson());
  }

  private DailyUsage ownToday(TopicPartition partition) {
    LocalDate today = today();
    DailyUsage current = own.get(partition);
    return current == null || !current.date().equals(today) ? new DailyUsage(today, 0) : current;
  }

  private LocalDate today() {
    return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
  }
}
