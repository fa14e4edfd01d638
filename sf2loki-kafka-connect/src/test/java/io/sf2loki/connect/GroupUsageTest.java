package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.pipeline.egress.DailyUsage;
import io.sf2loki.pipeline.egress.EgressMetrics;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The connector's day's use, summed from the group's committed offsets' metadata. */
class GroupUsageTest {

  private static final Instant NOON = Instant.parse("2026-12-02T12:00:00Z");
  private static final TopicPartition P0 = new TopicPartition("t", 0);
  private static final TopicPartition P1 = new TopicPartition("t", 1);
  private static final TopicPartition P2 = new TopicPartition("t", 2);
  private static final TopicPartition P3 = new TopicPartition("t", 3);

  private final ManualClock clock = new ManualClock(NOON);
  private final AtomicLong nanos = new AtomicLong();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Counter readErrors = registry.counter("read_errors");
  private final InMemoryOffsets offsets = new InMemoryOffsets();
  private final GroupUsage usage =
      new GroupUsage(
          offsets,
          "connect-deliver",
          clock,
          nanos::get,
          Duration.ofSeconds(5),
          new EgressMetrics(registry),
          readErrors);

  /** The group's committed offsets, in memory; fails reads while {@code failing}. */
  private static final class InMemoryOffsets implements CommittedOffsets {
    final Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
    boolean failing;
    int reads;

    void commit(TopicPartition p, String metadata) {
      committed.put(p, new OffsetAndMetadata(10, metadata));
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> read() throws Unreadable {
      reads++;
      if (failing) {
        throw new Unreadable("the broker is unreachable", new RuntimeException());
      }
      return new HashMap<>(committed);
    }

    @Override
    public void close() {}
  }

  private static String used(String date, long bytes) {
    return new DailyUsage(LocalDate.parse(date), bytes).toJson();
  }

  @Test
  void whatTheTaskPushedIsUnconfirmedUntilItsCommittedOffsetsCarryIt() throws Exception {
    offsets.commit(P0, used("2026-12-02", 100));
    usage.open(List.of(P0, P1));
    usage.refresh(true);
    assertThat(usage.unconfirmed()).isZero();

    usage.pushed(P0, 30);
    usage.pushed(P1, 20);
    assertThat(usage.unconfirmed()).isEqualTo(50);

    offsets.commit(P0, usage.metadata(P0).orElseThrow()); // P0's commit lands, P1's not yet
    usage.refresh(true);
    assertThat(usage.unconfirmed()).isEqualTo(20);

    offsets.commit(P1, usage.metadata(P1).orElseThrow());
    usage.refresh(true);
    assertThat(usage.unconfirmed()).isZero();
  }

  @Test
  void theDaysUseIsTheSumOfTodaysValuesOverThePartitionsOfTheGroup() throws Exception {
    offsets.commit(P0, used("2026-12-02", 100));
    offsets.commit(P1, used("2026-12-02", 200));
    offsets.commit(P2, used("2026-12-01", 5000)); // yesterday's: not today's use
    offsets.commit(P3, ""); // committed before any budget
    usage.open(List.of(P0));

    usage.refresh(false);

    assertThat(usage.total()).isEqualTo(new DailyUsage(LocalDate.parse("2026-12-02"), 300));
  }

  @Test
  void theTasksOwnPartitionsAreCountedLiveFromTheirCommittedValue() throws Exception {
    offsets.commit(P0, used("2026-12-02", 100));
    offsets.commit(P1, used("2026-12-02", 200));
    usage.open(List.of(P0));
    usage.refresh(false);

    usage.pushed(P0, 50);
    offsets.commit(P0, used("2026-12-02", 0)); // a stale commit of its own is not read again
    usage.refresh(true);

    assertThat(usage.total().bytes()).isEqualTo(350);
    assertThat(usage.metadata(P0)).contains(used("2026-12-02", 150));
    assertThat(usage.metadata(P1)).isEmpty();
  }

  @Test
  void aPartitionWithoutACommitStartsAtZero() throws Exception {
    usage.open(List.of(P2));

    usage.refresh(false);

    assertThat(usage.known()).isTrue();
    assertThat(usage.metadata(P2)).contains(used("2026-12-02", 0));
  }

  @Test
  void malformedMetadataIsWarnedCountedAndTakenAsZeroNotACrash() throws Exception {
    offsets.commit(P1, "{\"date\": 3}");
    offsets.commit(P2, used("2026-12-02", 70));
    usage.open(List.of(P0));

    usage.refresh(false);
    usage.refresh(true); // the same value again: warned once

    assertThat(usage.total().bytes()).isEqualTo(70);
    assertThat(registry.get("sf2loki_egress_budget_load_errors").counter().count()).isEqualTo(1);
    assertThat(GroupUsage.stored(P1, "{\"date\": 3}", LocalDate.parse("2026-12-02")))
        .isInstanceOf(GroupUsage.Stored.Malformed.class);
  }

  @Test
  void theOthersUseIsReadAgainOnlyWhenStaleOrAskedFor() throws Exception {
    usage.open(List.of(P0));
    usage.refresh(false);
    offsets.commit(P1, used("2026-12-02", 200));

    usage.refresh(false);
    assertThat(usage.total().bytes()).isZero();

    nanos.addAndGet(Duration.ofSeconds(5).toNanos());
    usage.refresh(false);
    assertThat(usage.total().bytes()).isEqualTo(200);
    assertThat(offsets.reads).isEqualTo(2);

    usage.refresh(true);
    assertThat(offsets.reads).isEqualTo(3);
  }

  @Test
  void aPartitionsUseThatCannotBeReadIsAnErrorTheTaskHoldsOn() {
    offsets.failing = true;
    usage.open(List.of(P0));

    assertThatThrownBy(() -> usage.refresh(false)).isInstanceOf(CommittedOffsets.Unreadable.class);
    assertThat(usage.known()).isFalse();
    assertThat(usage.metadata(P0)).isEmpty();
    assertThat(readErrors.count()).isEqualTo(1);
  }

  @Test
  void aLaterFailedReadKeepsTheLastKnownUseAndIsCounted() throws Exception {
    offsets.commit(P1, used("2026-12-02", 200));
    usage.open(List.of(P0));
    usage.refresh(false);
    offsets.failing = true;

    usage.refresh(true);
    usage.refresh(true);

    assertThat(usage.total().bytes()).isEqualTo(200);
    assertThat(readErrors.count()).isEqualTo(2);
  }

  @Test
  void aNewUtcDayStartsEveryPartitionsUseAtZero() throws Exception {
    offsets.commit(P1, used("2026-12-02", 200));
    usage.open(List.of(P0));
    usage.refresh(false);
    usage.pushed(P0, 500);

    clock.set(Instant.parse("2026-12-03T00:00:00Z"));

    assertThat(usage.total()).isEqualTo(new DailyUsage(LocalDate.parse("2026-12-03"), 0));
    assertThat(usage.metadata(P0)).contains(used("2026-12-03", 0));
    usage.pushed(P0, 10);
    assertThat(usage.metadata(P0)).contains(used("2026-12-03", 10));
  }

  @Test
  void aPartitionTakenAwayIsAnotherTasksUseAfterwards() throws Exception {
    usage.open(List.of(P0));
    usage.refresh(false);
    usage.pushed(P0, 40);
    offsets.commit(P0, used("2026-12-02", 40));

    usage.close(List.of(P0));
    usage.refresh(true);

    assertThat(usage.metadata(P0)).isEmpty();
    assertThat(usage.total().bytes()).isEqualTo(40);
  }
}
