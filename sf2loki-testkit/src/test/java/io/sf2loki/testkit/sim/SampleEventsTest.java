package io.sf2loki.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.TopicSchemas;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class SampleEventsTest {

  private static final Map<String, Schema> SCHEMAS =
      Map.of(
          FakePubSub.LOGIN, TopicSchemas.loginEventStream(),
          FakePubSub.ORDER, TopicSchemas.platformEvent("Order_Shipped__e"),
          FakePubSub.ACCOUNT_CHANGE, TopicSchemas.accountChangeEvent());

  private static List<SampleEvents.Event> events(long seed, int n, Instant start) {
    SampleEvents events = new SampleEvents(seed);
    List<SampleEvents.Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(events.next(start.plusMillis(i)));
    }
    return out;
  }

  @Test
  void theSameSeedGivesTheSameEventsAndAnotherSeedDiffers() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(events(3, 50, t)).isEqualTo(events(3, 50, t));
    assertThat(events(4, 50, t)).isNotEqualTo(events(3, 50, t));
  }

  @Test
  void everyEventFitsItsTopicsSchemaAndEachTopicComesUp() {
    List<SampleEvents.Event> events = events(1, 300, Instant.now());
    for (SampleEvents.Event e : events) {
      assertThatCode(() -> TopicSchemas.encode(SCHEMAS.get(e.topic()), e.fields()))
          .as(e.toString())
          .doesNotThrowAnyException();
    }
    assertThat(events.stream().map(SampleEvents.Event::topic).distinct())
        .containsExactlyInAnyOrderElementsOf(SCHEMAS.keySet());
  }

  @Test
  void accountUpdatesNameOnlyFieldsTheyCarryInTheirBitmaps() {
    List<Schema.Field> fields = TopicSchemas.accountChangeEvent().getFields();
    for (SampleEvents.Event e : events(2, 300, Instant.now())) {
      if (!e.topic().equals(FakePubSub.ACCOUNT_CHANGE)) {
        continue;
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> header = (Map<String, Object>) e.fields().get("ChangeEventHeader");
      @SuppressWarnings("unchecked")
      List<String> changed = (List<String>) header.get("changedFields");
      if (changed.isEmpty()) {
        assertThat(header.get("changeType")).isEqualTo("CREATE");
        continue;
      }
      BigInteger bits = new BigInteger(changed.get(0).substring(2), 16);
      for (int pos = 0; pos < bits.bitLength(); pos++) {
        if (bits.testBit(pos)) {
          assertThat(e.fields()).as(changed.toString()).containsKey(fields.get(pos).name());
        }
      }
    }
  }
}
