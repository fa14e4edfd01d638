package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import io.sf2loki.model.LogEntry;
import io.sf2loki.source.pubsub.client.PubSubClient;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.RecordedFetch;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Credits as backpressure: never more than 100 pending, never topped up while more than half the
 * credits' worth of events wait untaken, a keepalive position emitted after every event before it,
 * and 1 MB events.
 */
class PubSubFlowControlIT extends PubSubTestBase {

  @Test
  void theDefaultCreditsKeepAtMostOneHundredPendingAndTopUpOnceHalfAreUsed() throws Exception {
    harness(FakePubSub.builder().keepalive(Duration.ofSeconds(30)));
    h.publish(0, 1_000);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(30)).until(() -> run.ctx.lines().size() == 1_000);
    }
    assertThat(h.pubsub.maxOutstanding()).isLessThanOrEqualTo(100);
    List<RecordedFetch> fetches = h.pubsub.fetches();
    assertThat(fetches.get(0).numRequested()).isEqualTo(100);
    assertThat(fetches.stream().skip(1).mapToInt(RecordedFetch::numRequested))
        .as("a top-up once at most half are outstanding, back to 100")
        .isNotEmpty()
        .allMatch(n -> n >= 50 && n <= 100);
  }

  @Test
  void aLaneThatTakesNothingStopsTheServerOnceTheCreditsAreUsed() throws Exception {
    harness(FakePubSub.builder().keepalive(Duration.ofSeconds(30)));
    h.publish(0, 200);
    StreamingContext held = new StreamingContext(Map.of());
    held.holdAfter(5);
    try (PubSubHarness.Run run =
        h.start(TOPICS + ", replay_preset = EARLIEST, default_num_requested = 10", held)) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.entries().size() == 5);
      // Held: the 5 handed downstream, the rest of the response the topic thread holds (under 10),
      // and at most one and a half times the credits received and not taken (TopicStream).
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(1).plus(TestTiming.seconds(2)))
          .until(() -> h.pubsub.delivered() <= 5 + 10 + 15);
      run.ctx.release();
      await().atMost(TestTiming.seconds(20)).until(() -> run.ctx.lines().size() == 200);
      assertThat(PubSubHarness.identifiers(run.ctx.lines())).doesNotHaveDuplicates();
    }
    assertThat(h.pubsub.maxOutstanding()).isLessThanOrEqualTo(10);
  }

  @Test
  void aKeepalivePositionIsEmittedOnlyAfterEveryEventBeforeIt() throws Exception {
    harness(FakePubSub.builder().keepalive(Duration.ofMillis(100)));
    List<ByteString> events = h.publish(0, 3);
    ByteString advanced = h.pubsub.advancePosition(LOGIN);
    StreamingContext held = new StreamingContext(Map.of());
    held.holdAfter(1); // the lane is full after the first event
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", held)) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.entries().size() == 1);
      assertThat(run.ctx.committed())
          .containsEntry("pubsub:" + LOGIN, ReplayIds.encode(events.get(0)));
      run.ctx.release();
      String key = ReplayIds.encode(advanced);
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> key.equals(run.ctx.committed().get("pubsub:" + LOGIN)));
      List<LogEntry> entries = run.ctx.entries();
      int keepalive =
          entries.indexOf(
              entries.stream()
                  .filter(e -> e.isCheckpointOnly() && key.equals(e.checkpoint().get().value()))
                  .findFirst()
                  .orElseThrow());
      assertThat(entries.subList(0, keepalive)).hasSize(3).noneMatch(LogEntry::isCheckpointOnly);
    }
  }

  @Test
  void eventsOfOneMegabyteArriveWhole() throws Exception {
    harness(FakePubSub.builder());
    String big = "x".repeat(PubSubClient.MAX_EVENT_BYTES - 4_096);
    for (int i = 0; i < 3; i++) {
      h.pubsub.publish(LOGIN, Map.of("EventIdentifier", "big-" + i, "Application", big));
    }
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(20)).until(() -> run.ctx.lines().size() == 3);
      assertThat(run.ctx.lines()).allMatch(e -> e.line().contains(big));
    }
  }
}
