package io.sf2loki.daemon.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.loki.DecodedEntry;
import io.sf2loki.testkit.loki.DecodedStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FreshnessRecorderTest {

  private static DecodedEntry line(String text) {
    return new DecodedEntry(1, text, Map.of());
  }

  @Test
  void measuresEachEventOnceFromItsPublishAfterTheWarmUpAndCountsTheRest() {
    FreshnessRecorder r = new FreshnessRecorder(4, 2);
    for (int seq = 0; seq < 4; seq++) {
      r.published(seq, 1_000_000L * seq);
    }
    int numbered =
        r.arrived(
            List.of(
                new DecodedStream(
                    Map.of("source", "pubsub"),
                    List.of(
                        line("{\"EventIdentifier\": \"bench-0\"}"),
                        line("{\"EventIdentifier\": \"bench-2\", \"x\": 1}"),
                        line("{\"EventIdentifier\": \"bench-2\", \"x\": 1}"),
                        line("{\"other\": \"row\"}")))),
            7_000_000L);

    assertThat(numbered).isEqualTo(3);
    assertThat(r.arrivedCount()).isEqualTo(2);
    assertThat(r.duplicates()).isEqualTo(1);
    assertThat(r.histogram().getTotalCount()).isEqualTo(1); // bench-0 is warm-up
    assertThat(r.histogram().getMaxValue()).isBetween(4_990L, 5_010L); // µs from 2 ms to 7 ms
  }
}
