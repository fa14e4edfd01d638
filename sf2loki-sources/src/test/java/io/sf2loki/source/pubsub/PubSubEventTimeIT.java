package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.sf2loki.model.LogEntry;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PubSubEventTimeIT extends PubSubTestBase {

  @Test
  void eventsCarryingTheirEventDateCountNoTimestampFallback() throws Exception {
    harness(FakePubSub.builder());
    h.publish(0, 3);
    try (PubSubHarness.Run run = h.start(TOPICS + ", replay_preset = EARLIEST", Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 3);

      assertThat(run.ctx.lines())
          .extracting(LogEntry::timestampNanos)
          .containsExactly(
              1_780_000_000_000L * 1_000_000,
              1_780_000_000_001L * 1_000_000,
              1_780_000_000_002L * 1_000_000); // each its EventDate
      Counter fallbacks = h.metrics.find("sf2loki_timestamp_fallbacks").counter();
      assertThat(fallbacks == null ? 0 : fallbacks.count()).isZero();
    }
  }
}
