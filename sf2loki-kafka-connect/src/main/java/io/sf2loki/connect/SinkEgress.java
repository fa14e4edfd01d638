package io.sf2loki.connect;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.EgressConfig;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.PipelineMetrics;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.pipeline.egress.Admission;
import io.sf2loki.pipeline.egress.EgressGovernor;
import io.sf2loki.pipeline.egress.EgressMetrics;
import io.sf2loki.pipeline.egress.EgressWait;
import io.sf2loki.source.pubsub.PubSubSource;
import io.sf2loki.spi.Source;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * A sink task's share of {@code sink.loki.egress}: the daemon's {@link EgressGovernor} admits each
 * batch (its lane's rate caps, this task's share of them, and the connector's daily byte budget,
 * whose use {@link GroupUsage} reads from the consumer group) before the task pushes it.
 */
final class SinkEgress implements AutoCloseable {

  /** How stale the other tasks' use may get while the budget is far from spent. */
  static final Duration READ_EVERY = Duration.ofSeconds(5);

  /**
   * From this share of the budget, divided by the number of tasks, on (as this task knows the use),
   * the others' use is read before every admission, and a batch waits until the task's previous
   * pushes show in its committed offsets: every task then has at most one batch the others cannot
   * see, which bounds the overshoot. Connect commits asynchronously, so without the wait a task
   * pushing fast runs many batches ahead of what the others read.
   */
  private static final double NEAR = 0.5;

  /** How soon a batch that waits for the task's own commit to land is tried again. */
  static final Duration CONFIRM_WAIT = Duration.ofMillis(20);

  private final EgressGovernor governor;
  private final EgressConfig config;
  private final Clock clock;
  private final Optional<GroupUsage> usage;
  private final Optional<CommittedOffsets> offsets;
  private final EgressMetrics metrics;
  private final MeterRegistry registry;
  private final EgressWait capWait;
  private final double nearBytes;

  /**
   * @param config this task's share ({@link #perTask})
   * @param tasks how many tasks share the budget
   * @param offsets the group's committed offsets; required when a budget is set
   */
  SinkEgress(
      EgressConfig config,
      int tasks,
      Optional<CommittedOffsets> offsets,
      String group,
      EngineEnvironment environment,
      Sleeper sleeper) {
    if (config.hasBudget() && offsets.isEmpty()) {
      throw new IllegalArgumentException("a daily byte budget needs the group's offsets");
    }
    this.nearBytes = NEAR * config.dailyByteBudget() / Math.max(1, tasks);
    this.config = config;
    this.clock = environment.clock();
    this.registry = environment.metrics();
    this.metrics = new EgressMetrics(registry);
    this.offsets = offsets;
    this.governor =
        new EgressGovernor(config, environment.clock(), environment.ticker(), metrics, Map.of());
    Counter readErrors =
        Counter.builder("sf2loki_egress_budget_read_errors")
            .description("Reads of the sink connector's day's egress use from Kafka that failed")
            .register(registry);
    this.usage =
        config.hasBudget()
            ? offsets.map(
                o ->
                    new GroupUsage(
                        o,
                        group,
                        environment.clock(),
                        environment.ticker(),
                        READ_EVERY,
                        metrics,
                        readErrors))
            : Optional.empty();
    this.capWait =
        new EgressWait() {
          @Override
          public boolean await(Duration duration) throws InterruptedException {
            sleeper.sleep(duration); // at most about a second: a bucket holds one second of rate
            return false;
          }

          @Override
          public boolean stopping() {
            return false;
          }
        };
  }

  /**
   * Each task's share of the configured caps when the connector runs {@code tasks} tasks, so that
   * the connector as a whole stays within them: the cap divided evenly, at least 1.
   */
  static EgressConfig perTask(EgressConfig config, int tasks) {
    Map<Source.Lane, EgressConfig.RateCaps> caps = new EnumMap<>(Source.Lane.class);
    for (Source.Lane lane : Source.Lane.values()) {
      EgressConfig.RateCaps c = config.caps(lane);
      if (c.isCapped()) {
        caps.put(
            lane,
            new EgressConfig.RateCaps(
                share(c.bytesPerSecond(), tasks), share(c.linesPerSecond(), tasks)));
      }
    }
    return new EgressConfig(config.dailyByteBudget(), config.action(), config.exemptLanes(), caps);
  }

  private static long share(long cap, int tasks) {
    return cap == 0 ? 0 : Math.max(1, cap / Math.max(1, tasks));
  }

  /** The daemon's lane of the source that read {@code entry}: Pub/Sub streams, the rest bulk. */
  static Source.Lane lane(LogEntry entry) {
    return PubSubSource.SOURCE.equals(entry.labels().get("source"))
        ? Source.Lane.STREAMING
        : Source.Lane.BULK;
  }

  /** True when a daily byte budget is set: the offsets then carry the day's use. */
  boolean budgeted() {
    return usage.isPresent();
  }

  void open(List<TopicPartition> partitions) {
    usage.ifPresent(u -> u.open(partitions));
  }

  void close(List<TopicPartition> partitions) {
    usage.ifPresent(u -> u.close(partitions));
  }

  /**
   * Makes sure the use of every partition of the task is known before it pushes.
   *
   * @throws CommittedOffsets.Unreadable when it cannot be read
   */
  void requireKnownUse() throws CommittedOffsets.Unreadable, InterruptedException {
    if (usage.isPresent() && !usage.get().known()) {
      usage.get().refresh(true);
    }
  }

  /**
   * Admits {@code chunk} on {@code lane}: the budget's decision on the connector's use (read again
   * first when near or past the budget, or stale), after any wait its caps ask for. Near the budget
   * a non-exempt lane's batch is {@link Admission.Hold held} for {@link #CONFIRM_WAIT} while the
   * task's previous pushes are not in its committed offsets yet.
   *
   * @throws CommittedOffsets.Unreadable when a partition's use is not known and cannot be read
   */
  Admission admit(Source.Lane lane, List<PendingEntry> chunk)
      throws CommittedOffsets.Unreadable, InterruptedException {
    long bytes = 0;
    for (PendingEntry p : chunk) {
      bytes += p.entry().lineUtf8Size();
    }
    if (usage.isPresent()) {
      GroupUsage u = usage.get();
      boolean near = u.total().bytes() + bytes >= nearBytes;
      u.refresh(near);
      governor.observed(u.total());
      if (near && !config.isExempt(lane) && u.unconfirmed() > 0) {
        // not a spent budget: the task's last push is not in its committed offsets yet
        return new Admission.Hold(clock.instant().plus(CONFIRM_WAIT));
      }
    }
    return governor.admitOrHold(lane, chunk.size(), bytes, capWait);
  }

  /** Counts what Loki stored of {@code chunk}, on {@code lane} and per partition. */
  void pushed(Source.Lane lane, List<PendingEntry> chunk) {
    long bytes = 0;
    for (PendingEntry p : chunk) {
      long line = p.entry().lineUtf8Size();
      bytes += line;
      usage.ifPresent(u -> u.pushed(p.partition(), line));
    }
    governor.pushed(lane, bytes);
  }

  /** Counts entries the budget dropped ({@code budget_action = drop}). */
  void dropped(List<PendingEntry> chunk) {
    chunk.forEach(p -> PipelineMetrics.dropped(registry, p.entry(), "budget"));
  }

  /** The metadata to commit with {@code partition}'s offset, when a budget is set. */
  Optional<String> metadata(TopicPartition partition) {
    return usage.flatMap(u -> u.metadata(partition));
  }

  EgressMetrics metrics() {
    return metrics;
  }

  @Override
  public void close() {
    offsets.ifPresent(CommittedOffsets::close);
  }
}
