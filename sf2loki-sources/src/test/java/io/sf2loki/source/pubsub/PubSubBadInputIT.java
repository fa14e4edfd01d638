package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.google.protobuf.ByteString;
import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.testing.LogCapture;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.PubSubFault;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input on a live stream: each kind is counted, logged once with the topic and replay id, and
 * handled without losing the rest of the stream or moving the position past an undelivered event.
 */
class PubSubBadInputIT extends PubSubTestBase {

  @BeforeEach
  void start() throws Exception {
    harness(FakePubSub.builder());
  }

  private double decodeErrors(String reason) {
    var c = h.metrics.find("sf2loki_decode_errors").tag("reason", reason).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void anUnknownSchemaIdIsShippedRawCountedAndTheStreamGoesOn() throws Exception {
    h.publish(0, 1);
    ByteString unknown = h.pubsub.publishUnknownSchema(LOGIN, new byte[] {2, 4, 6});
    List<ByteString> after = h.publish(1, 1);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 3);
      LogEntry raw = run.ctx.lines().get(1);
      assertThat(raw.line())
          .contains("\"decode_error\": \"UnknownSchema", "\"schema_id\": \"ffffffffffffffff\"")
          .contains("\"replay_id\": \"" + ReplayIds.hex(unknown) + "\"");
      assertThat(raw.metadata()).containsEntry("level", "error");
      assertThat(raw.checkpoint().orElseThrow().value()).isEqualTo(ReplayIds.encode(unknown));
      assertThat(decodeErrors("UnknownSchema")).isEqualTo(1);
      assertThat(run.ctx.committed())
          .containsEntry("pubsub:" + LOGIN, ReplayIds.encode(after.get(0)));
    }
  }

  @Test
  void eachReasonIsLoggedOnceWithTheTopicAndReplayIdThenOnlyCounted() throws Exception {
    ByteString first = h.pubsub.publishRaw(LOGIN, new byte[] {(byte) 0xff, 1});
    h.pubsub.publishRaw(LOGIN, new byte[] {(byte) 0xff, 2});
    h.pubsub.publishRaw(LOGIN, new byte[] {(byte) 0xff, 3});
    try (LogCapture log = new LogCapture(EventEntries.class);
        PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 3);
      assertThat(decodeErrors("PayloadDecode")).isEqualTo(3);
      assertThat(log.errors())
          .singleElement()
          .asString()
          .contains(LOGIN, ReplayIds.hex(first), "PayloadDecode");
    }
  }

  @Test
  void aMalformedBitmapShipsTheChangeEventWithItsRawBitmapsAndCountsIt() throws Exception {
    h.pubsub.publish(FakePubSub.ACCOUNT_CHANGE, ChangeEvents.update(List.of("0x80000000"), "Acme"));
    h.pubsub.publish(FakePubSub.ACCOUNT_CHANGE, ChangeEvents.update(List.of("0x2"), "Next"));
    try (LogCapture log = new LogCapture(EventEntries.class);
        PubSubHarness.Run run =
            h.start(
                "topics = [\"/data/AccountChangeEvent\"], replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 2);
      assertThat(run.ctx.lines().get(0).line())
          .contains("\"changedFields\": [\"0x80000000\"]", "\"Name\": \"Acme\"");
      assertThat(run.ctx.lines().get(1).line()).contains("\"changedFields\": [\"Name\"]");
      assertThat(decodeErrors("MalformedBitmap")).isEqualTo(1);
      assertThat(log.errors()).singleElement().asString().contains("MalformedBitmap");
    }
  }

  @Test
  void schemaFetchesFailingInARowAreLoggedOnceCountedAndSkipNothing() throws Exception {
    h.pubsub.inject(new PubSubFault.Schema(PubSubFault.SchemaKind.UNAVAILABLE, 3));
    List<ByteString> ids = h.publish(0, 3);
    try (LogCapture log = new LogCapture(TopicSubscriber.class);
        PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 3);
      assertThat(PubSubHarness.identifiers(run.ctx.lines()))
          .containsExactly("ev-0", "ev-1", "ev-2");
      double streamErrors =
          h.metrics.find("sf2loki_pubsub_stream_errors").tag("topic", LOGIN).counters().stream()
              .mapToDouble(c -> c.count())
              .sum();
      assertThat(streamErrors).isEqualTo(3);
      assertThat(h.counter("sf2loki_pubsub_decode_stalls", LOGIN)).isEqualTo(1);
      assertThat(log.messages(Level.WARN).stream().filter(m -> m.contains("writer schema")))
          .singleElement()
          .asString()
          .contains(LOGIN, ReplayIds.hex(ids.get(0)), "skipping nothing");
    }
  }

  @Test
  void aSchemaFetchRefusedForTheTokenRefreshesItAndSkipsNothing() throws Exception {
    h.pubsub.inject(PubSubFault.schema(PubSubFault.SchemaKind.UNAUTHENTICATED));
    h.publish(0, 2);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 2);
      assertThat(PubSubHarness.identifiers(run.ctx.lines())).containsExactly("ev-0", "ev-1");
      assertThat(h.counter("sf2loki_pubsub_auth_refreshes", LOGIN)).isEqualTo(1);
    }
  }
}
