package io.sf2loki.testkit.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class TopicLogTest {

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(START);
  private final TopicLog log =
      new TopicLog(
          "/event/LoginEventStream",
          TopicSchemas.loginEventStream(),
          clock,
          Duration.ofSeconds(10),
          new Random(1));

  @Test
  void servesExactlyTheEventsInsideRetentionAsOlderOnesExpireOneByOne() {
    long[] ids = new long[100];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = log.append("s", new byte[] {(byte) i}, "e" + i, false).id();
      clock.advance(Duration.ofSeconds(1));
    }
    // event i was published at second i; at second t those from t - 10 on are retained (the one
    // published exactly at the horizon too). Before t = 60 the expired ones are still in the
    // list, after it they were dropped from it.
    for (int t : new int[] {20, 21, 22, 35, 59, 60, 61, 75, 90}) {
      clock.set(START.plusSeconds(t));
      int oldest = t - 10;
      List<TopicLog.Stored> served = log.after(log.earliest(), 1000);
      assertThat(served).extracting(TopicLog.Stored::id).first().isEqualTo(ids[oldest]);
      assertThat(served).hasSize(ids.length - oldest);
      assertThat(log.size()).isEqualTo(ids.length - oldest);
      assertThat(log.positionOf(TopicLog.replayId(ids[oldest - 1]))).isEmpty();
      assertThat(log.positionOf(TopicLog.replayId(ids[oldest]))).contains(ids[oldest]);
      assertThat(log.after(ids[oldest + 3], 2))
          .extracting(TopicLog.Stored::id)
          .containsExactly(ids[oldest + 4], ids[oldest + 5]);
    }
  }

  @Test
  void onceEverythingExpiredTheEarliestAndLatestPositionsAreTheTip() {
    log.append("s", new byte[0], "a", false);
    long last = log.append("s", new byte[0], "b", false).id();
    clock.advance(Duration.ofSeconds(11));
    assertThat(log.earliest()).isEqualTo(last);
    assertThat(log.latest()).isEqualTo(last);
    assertThat(log.size()).isZero();
    long next = log.append("s", new byte[0], "c", false).id();
    assertThat(log.after(log.earliest(), 10)).extracting(TopicLog.Stored::id).containsExactly(next);
  }
}
