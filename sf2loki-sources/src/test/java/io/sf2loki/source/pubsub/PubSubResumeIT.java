package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import io.sf2loki.salesforce.testing.LogCapture;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.RecordedFetch;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a subscription starts: after the last committed id on a restart (only the unacknowledged
 * tail again), from EARLIEST when the stored id fell out of retention, and an explicit topic the
 * user may not read named with the permission it lacks and picked up once granted.
 */
class PubSubResumeIT extends PubSubTestBase {

  private static final String KEY = "pubsub:" + LOGIN;

  @Test
  void aRestartSendsAgainOnlyTheEventsLokiHadNotAcknowledged() throws Exception {
    harness(FakePubSub.builder());
    List<ByteString> acknowledged = h.publish(0, 5);
    Map<String, String> committed;
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 5);
      run.ctx.stopCommitting(); // Loki stops answering: the next events stay unacknowledged
      h.publish(5, 3);
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 8);
      committed = run.ctx.committed();
    }
    assertThat(committed).containsEntry(KEY, ReplayIds.encode(acknowledged.get(4)));
    h.publish(8, 2);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", committed)) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 5);
      assertThat(PubSubHarness.identifiers(run.ctx.lines()))
          .containsExactly("ev-5", "ev-6", "ev-7", "ev-8", "ev-9");
    }
  }

  @Test
  void aStoredIdPastRetentionResumesFromTheOldestRetainedEventWithACounter() throws Exception {
    MutableClock clock = new MutableClock(Instant.parse("2026-03-01T00:00:00Z"));
    harness(FakePubSub.builder().clock(clock).retention(Duration.ofHours(72)));
    List<ByteString> expired = h.publish(0, 2);
    clock.advance(Duration.ofHours(73));
    h.publish(2, 2);
    try (PubSubHarness.Run run = h.start(TOPICS, Map.of(KEY, ReplayIds.encode(expired.get(1))))) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 2);
      assertThat(PubSubHarness.identifiers(run.ctx.lines())).containsExactly("ev-2", "ev-3");
      assertThat(h.counter("sf2loki_pubsub_replay_fallbacks", LOGIN)).isEqualTo(1);
      assertThat(
              h.pubsub.fetches().stream().filter(RecordedFetch::first).map(RecordedFetch::preset))
          .containsExactly("CUSTOM", "EARLIEST")
          .doesNotContain("LATEST");
    }
  }

  @Test
  void anExplicitTopicTheUserMayNotReadNamesThePermissionAndIsPickedUpOnceGranted()
      throws Exception {
    harness(FakePubSub.builder());
    h.pubsub.canSubscribe(LOGIN, false);
    h.publish(0, 1);
    try (LogCapture log = new LogCapture(TopicDiscovery.class);
        PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> !log.errors().isEmpty());
      assertThat(log.errors().get(0))
          .contains(LOGIN, "View Real-Time Event Monitoring Data", "Event Manager");
      assertThat(h.counter("sf2loki_pubsub_topics_refused", LOGIN)).isEqualTo(1);
      h.pubsub.canSubscribe(LOGIN, true); // granted: no restart needed
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 1);
    }
  }
}
