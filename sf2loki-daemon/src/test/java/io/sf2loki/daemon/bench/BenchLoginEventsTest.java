package io.sf2loki.daemon.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.testkit.pubsub.TopicSchemas;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class BenchLoginEventsTest {

  @Test
  void writesTheBytesTheFakesGeneralEncoderWritesForTheSameEvent() {
    BenchLoginEvents events = new BenchLoginEvents(TopicSchemas.loginEventStream());
    for (long seq : new long[] {0, 7, 123_456_789, 999_999_999_999L}) {
      long millis = 1_796_000_000_000L + seq;
      assertThat(events.encode(seq, millis))
          .isEqualTo(
              TopicSchemas.encode(
                  TopicSchemas.loginEventStream(), BenchLoginEvents.fields(seq, millis)));
    }
  }

  @Test
  void numbersTheUuidAsTheFormatItReplacesDid() {
    for (long seq : new long[] {0, 42, 999_999_999_999L}) {
      assertThat(BenchLoginEvents.uuid(seq))
          .isEqualTo(String.format(Locale.ROOT, "00000000-0000-4000-8000-%012d", seq));
    }
  }

  @Test
  void refusesATopicWhoseFieldsItDoesNotWrite() {
    assertThatThrownBy(() -> new BenchLoginEvents(TopicSchemas.reportEvent()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ReportId");
  }
}
