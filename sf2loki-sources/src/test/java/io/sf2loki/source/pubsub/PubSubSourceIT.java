package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import io.sf2loki.model.LogEntry;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.PubSubFault;
import io.sf2loki.testkit.pubsub.RecordedFetch;
import io.sf2loki.testkit.pubsub.TopicSchemas;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class PubSubSourceIT extends PubSubTestBase {

  private List<ByteString> publish(int n) {
    return h.publish(0, n);
  }

  private static Duration wait(int s) {
    return TestTiming.seconds(s);
  }

  private static List<String> identifiers(List<LogEntry> lines) {
    return PubSubHarness.identifiers(lines);
  }

  @Test
  void deliversEventsAsCanonicalLinesWithTheTopicLabelsAndTheirReplayIds() throws Exception {
    harness(FakePubSub.builder());
    List<ByteString> ids = publish(3);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 3);
      LogEntry first = run.ctx.lines().get(0);
      assertThat(first.labels().get("source")).isEqualTo("pubsub");
      assertThat(first.labels().get("event_type")).isEqualTo("LoginEventStream");
      assertThat(first.line()).contains("\"Username\": \"u0@example.com\"");
      assertThat(first.timestampNanos()).isEqualTo(1_780_000_000_000L * 1_000_000);
      assertThat(run.ctx.committed())
          .containsEntry("pubsub:" + LOGIN, ReplayIds.encode(ids.get(2)));
    }
  }

  @Test
  void neverLetsMoreThanTheConfiguredCreditsBePending() throws Exception {
    harness(FakePubSub.builder().keepalive(Duration.ofSeconds(30)));
    publish(450);
    try (PubSubHarness.Run run =
        h.start(TOPICS + ", replay_preset = EARLIEST, default_num_requested = 40", Map.of())) {
      await().atMost(wait(20)).until(() -> run.ctx.lines().size() == 450);
    }
    assertThat(h.pubsub.maxOutstanding()).isLessThanOrEqualTo(40);
    assertThat(h.pubsub.fetches().stream().skip(1).mapToInt(RecordedFetch::numRequested))
        .allMatch(n -> n > 0 && n <= 40);
  }

  @Test
  void checkpointsTheKeepalivePositionOfAQuietTopic() throws Exception {
    harness(FakePubSub.builder().keepalive(Duration.ofMillis(100)));
    publish(1);
    ByteString advanced = h.pubsub.advancePosition(LOGIN);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await()
          .atMost(wait(10))
          .until(
              () -> ReplayIds.encode(advanced).equals(run.ctx.committed().get("pubsub:" + LOGIN)));
      assertThat(run.ctx.lines()).hasSize(1);
    }
  }

  @Test
  void aRestartResumesRightAfterTheLastCommittedReplayId() throws Exception {
    harness(FakePubSub.builder());
    publish(5);
    Map<String, String> committed;
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 5);
      committed = run.ctx.committed();
    }
    publish(3);
    try (PubSubHarness.Run run = h.start(TOPICS, committed)) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 3);
      assertThat(identifiers(run.ctx.lines())).containsExactly("ev-0", "ev-1", "ev-2");
      RecordedFetch resume =
          h.pubsub.fetches().stream()
              .filter(RecordedFetch::first)
              .reduce((a, b) -> b)
              .orElseThrow();
      assertThat(resume.preset()).isEqualTo("CUSTOM");
      assertThat(ReplayIds.encode(resume.replayId())).isEqualTo(committed.get("pubsub:" + LOGIN));
    }
  }

  @Test
  void aResetStreamResubscribesAfterTheLastEventWithNoLossAndNoDuplicate() throws Exception {
    harness(FakePubSub.builder());
    h.pubsub.inject(PubSubFault.stream(PubSubFault.StreamKind.RST_STREAM, 4));
    publish(10);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() >= 10);
      assertThat(identifiers(run.ctx.lines())).doesNotHaveDuplicates().hasSize(10);
      assertThat(h.counter("sf2loki_pubsub_reconnects", LOGIN)).isPositive();
    }
  }

  @Test
  void anAuthErrorMidStreamRefreshesTheTokenAndResumesFromTheSamePosition() throws Exception {
    harness(FakePubSub.builder());
    List<ByteString> ids = publish(3);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 3);
      h.sf.expireAllTokens();
      h.pubsub.expireTokens(); // the live stream fails with the auth error
      h.pubsub.publish(LOGIN, Map.of("EventIdentifier", "ev-after"));
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 4);
      List<RecordedFetch> opens = h.pubsub.fetches().stream().filter(RecordedFetch::first).toList();
      assertThat(opens).hasSize(2);
      assertThat(opens.get(1).preset()).isEqualTo("CUSTOM");
      assertThat(opens.get(1).replayId()).isEqualTo(ids.get(2));
      assertThat(opens.get(1).accessToken()).isNotEqualTo(opens.get(0).accessToken());
      assertThat(h.counter("sf2loki_pubsub_auth_refreshes", LOGIN)).isEqualTo(1);
    }
  }

  @Test
  void anExpiredStoredReplayIdResumesFromEarliestWithACounter() throws Exception {
    harness(FakePubSub.builder());
    publish(2);
    Map<String, String> stored = new HashMap<>();
    stored.put("pubsub:" + LOGIN, ReplayIds.encode(ByteString.copyFrom(new byte[8])));
    try (PubSubHarness.Run run = h.start(TOPICS, stored)) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 2);
      assertThat(h.counter("sf2loki_pubsub_replay_fallbacks", LOGIN)).isEqualTo(1);
      assertThat(
              h.pubsub.fetches().stream().filter(RecordedFetch::first).map(RecordedFetch::preset))
          .containsExactly("CUSTOM", "EARLIEST");
    }
  }

  @Test
  void anExpiredStoredReplayIdEndsTheRunWhenThePolicyIsFail() throws Exception {
    harness(FakePubSub.builder());
    Map<String, String> stored =
        Map.of("pubsub:" + LOGIN, ReplayIds.encode(ByteString.copyFrom(new byte[8])));
    PubSubHarness.Run run = h.start(TOPICS + ", invalid_replay_id = fail", stored);
    await().atMost(wait(10)).until(run.task::isDone);
    org.assertj.core.api.Assertions.assertThatThrownBy(run.task::get)
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(InvalidReplayIdException.class);
  }

  @Test
  void aStoredPositionThatIsNotBase64ResumesFromEarliestLikeARejectedReplayId() throws Exception {
    harness(FakePubSub.builder());
    publish(3); // published while the daemon was down: replay_preset CUSTOM alone means LATEST
    try (PubSubHarness.Run run = h.start(TOPICS, Map.of("pubsub:" + LOGIN, "not base64!"))) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 3);
      assertThat(h.metrics.find("sf2loki_checkpoint_load_errors").counter().count()).isEqualTo(1);
      assertThat(h.counter("sf2loki_pubsub_replay_fallbacks", LOGIN)).isEqualTo(1);
      assertThat(
              h.pubsub.fetches().stream().filter(RecordedFetch::first).map(RecordedFetch::preset))
          .containsExactly("EARLIEST")
          .doesNotContain("LATEST");
    }
  }

  @Test
  void aStoredPositionThatIsNotBase64EndsTheRunWhenThePolicyIsFail() throws Exception {
    harness(FakePubSub.builder());
    PubSubHarness.Run run =
        h.start(TOPICS + ", invalid_replay_id = fail", Map.of("pubsub:" + LOGIN, "not base64!"));
    await().atMost(wait(10)).until(run.task::isDone);
    org.assertj.core.api.Assertions.assertThatThrownBy(run.task::get)
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(InvalidReplayIdException.class)
        .rootCause()
        .hasMessageContaining("'not base64!'", "invalid_replay_id = fail");
    assertThat(h.pubsub.fetches()).isEmpty();
  }

  @Test
  void aSilentStreamIsReconnectedByTheWatchdog() throws Exception {
    harness(FakePubSub.builder().keepalive(Duration.ofSeconds(30)));
    h.pubsub.inject(PubSubFault.stream(PubSubFault.StreamKind.STALL, 0));
    publish(2);
    try (PubSubHarness.Run run =
        h.start(TOPICS + ", replay_preset = EARLIEST, stall_timeout = 500ms", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 2);
      assertThat(h.counter("sf2loki_pubsub_stream_stalls", LOGIN)).isEqualTo(1);
    }
  }

  @Test
  void anUndecodablePayloadIsShippedRawAndCountedAndTheStreamGoesOn() throws Exception {
    harness(FakePubSub.builder());
    publish(1);
    h.pubsub.publishRaw(LOGIN, new byte[] {(byte) 0xff, 1, 2});
    publish(1);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 3);
      assertThat(run.ctx.lines().get(1).line()).contains("\"decode_error\"", "payload_base64");
      assertThat(
              h.metrics
                  .find("sf2loki_decode_errors")
                  .tag("reason", "PayloadDecode")
                  .counter()
                  .count())
          .isEqualTo(1);
    }
  }

  @Test
  void aSchemaFetchFailureResubscribesWithoutSkippingTheEvent() throws Exception {
    harness(FakePubSub.builder());
    h.pubsub.inject(PubSubFault.schema(PubSubFault.SchemaKind.UNAVAILABLE));
    publish(3);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 3);
      assertThat(identifiers(run.ctx.lines())).containsExactly("ev-0", "ev-1", "ev-2");
    }
  }

  @Test
  void changeEventBitmapsArriveAsFieldNames() throws Exception {
    harness(FakePubSub.builder());
    h.pubsub.publish(
        FakePubSub.ACCOUNT_CHANGE, ChangeEvents.update(List.of("0x12", "4-0x14"), "Acme"));
    try (PubSubHarness.Run run =
        h.start("topics = [\"/data/AccountChangeEvent\"], replay_preset = EARLIEST", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 1);
      LogEntry e = run.ctx.lines().get(0);
      assertThat(e.line())
          .contains(
              "\"changedFields\": [\"Name\", \"BillingAddress\", \"BillingAddress.State\","
                  + " \"BillingAddress.Country\"]");
      assertThat(e.timestampNanos()).isEqualTo(1_780_000_000_123L * 1_000_000);
    }
  }

  @Test
  void discoveryFindsBothRtemGenerationsPlatformEventsAndChangeEventsItMaySubscribeTo()
      throws Exception {
    harness(
        FakePubSub.builder().deniedTopic("/event/ApiEventStream", TopicSchemas.loginEventStream()));
    h.sf.addSObjects(
        "ReportEvent",
        "ReportEventStore",
        "LoginEvent",
        "Order_Shipped__e",
        "AccountChangeEvent",
        "Account");
    h.pubsub.publish(FakePubSub.REPORT, Map.of("ReportId", "00O1", "EventDate", 1L));
    h.pubsub.publish(FakePubSub.ORDER, Map.of("CreatedDate", 2L, "CreatedById", "005"));
    try (PubSubHarness.Run run = h.start("topics = [\"*\"], replay_preset = EARLIEST", Map.of())) {
      await().atMost(wait(10)).until(() -> run.ctx.lines().size() == 2);
      assertThat(h.pubsub.fetches().stream().filter(RecordedFetch::first).map(RecordedFetch::topic))
          .containsExactlyInAnyOrder(
              LOGIN, FakePubSub.REPORT, FakePubSub.ORDER, FakePubSub.ACCOUNT_CHANGE);
      assertThat(h.counter("sf2loki_pubsub_topics_refused", "/event/ApiEventStream")).isEqualTo(1);
    }
  }

  @Test
  void noTopicsEndTheSourceAtOnce() throws Exception {
    harness(FakePubSub.builder());
    PubSubHarness.Run run = h.start("topics = []", Map.of());
    run.task.get(TestTiming.seconds(5).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    assertThat(h.pubsub.calls("Subscribe")).isZero();
  }
}
