package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.TopicSchemas;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An RTEM custom event channel ({@code /event/<Name>__chn}, a PlatformEventChannel of up to 10
 * event types) is one topic on one subscription; each event decodes by its own writer schema and is
 * labelled with its member's event type.
 */
class PubSubChannelIT extends PubSubTestBase {

  static final String CHANNEL = "/event/Security_Monitoring__chn";

  @Test
  void aChannelMixingEventTypesDecodesEachByItsOwnSchemaAndLabelsItsType() throws Exception {
    harness(FakePubSub.builder().topic(CHANNEL, TopicSchemas.loginEventStream()));
    h.pubsub.publishMember(
        CHANNEL,
        TopicSchemas.loginEventStream(),
        Map.of("EventIdentifier", "login-1", "Username", "u@example.com"));
    h.pubsub.publishMember(
        CHANNEL,
        TopicSchemas.anomalyEvent("ApiAnomalyEvent"),
        Map.of("EventIdentifier", "anomaly-1", "Score", 91.0, "Summary", "Unusual API volume"));

    try (PubSubHarness.Run run =
        h.start("topics = [\"" + CHANNEL + "\"], replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 2);
      LogEntry login = run.ctx.lines().get(0);
      LogEntry anomaly = run.ctx.lines().get(1);
      assertThat(login.labels().get("event_type")).isEqualTo("LoginEventStream");
      assertThat(login.line()).contains("\"Username\": \"u@example.com\"");
      assertThat(anomaly.labels().get("event_type")).isEqualTo("ApiAnomalyEvent");
      assertThat(anomaly.line()).contains("\"Summary\": \"Unusual API volume\"");
      assertThat(anomaly.metadata()).containsEntry("severity", "critical");
      assertThat(h.pubsub.calls("Subscribe")).isEqualTo(1);
    }
  }
}
