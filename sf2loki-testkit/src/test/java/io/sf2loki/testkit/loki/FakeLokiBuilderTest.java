package io.sf2loki.testkit.loki;

import static io.sf2loki.testkit.loki.FakeLokiIngestTest.NOW;
import static io.sf2loki.testkit.loki.FakeLokiIngestTest.NOW_NANOS;
import static io.sf2loki.testkit.loki.FakeLokiIngestTest.hours;
import static io.sf2loki.testkit.loki.WireBodies.json;
import static io.sf2loki.testkit.loki.WireBodies.postJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.testkit.ScaledTimeout;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The builder's options reach the running fake; the static conveniences are the builder's. */
@ScaledTimeout(seconds = 10)
class FakeLokiBuilderTest {

  private static final Clock FIXED = Clock.fixed(NOW, ZoneOffset.UTC);

  @Test
  void theClockJudgesSampleAge() throws Exception {
    try (FakeLoki loki = FakeLoki.builder().clock(FIXED).start()) {
      postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS - hours(1), "recent"));
      postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS - hours(24 * 8), "a week too old"));

      assertThat(loki.lines()).containsExactly("recent");
    }
  }

  @Test
  void withoutKeepingEntriesItAnswersAndReportsAsUsualButKeepsNothing() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (FakeLoki loki =
        FakeLoki.builder()
            .clock(FIXED)
            .keepEntries(false)
            .onStored(streams -> streams.forEach(s -> s.entries().forEach(e -> seen.add(e.line()))))
            .start()) {
      assertThat(postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "line")).statusCode())
          .isEqualTo(204);

      assertThat(seen).containsExactly("line");
      assertThat(loki.entries()).isEmpty();
      assertThat(loki.stats().entries()).isZero();
    }
  }

  @Test
  void withoutKeepingEntriesTheOutOfOrderWindowStillHolds() throws Exception {
    try (FakeLoki loki = FakeLoki.builder().clock(FIXED).keepEntries(false).start()) {
      postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "newest"));

      assertThat(postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS - hours(2), "behind")).statusCode())
          .isEqualTo(400);
    }
  }

  @Test
  void headersOnlyRecordingKeepsNoStreams() throws Exception {
    try (FakeLoki loki =
        FakeLoki.builder().clock(FIXED).recording(FakeLoki.PushRecording.HEADERS_ONLY).start()) {
      postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "line"));

      assertThat(loki.pushes()).singleElement().satisfies(p -> assertThat(p.streams()).isEmpty());
      assertThat(loki.lines()).containsExactly("line");
    }
  }

  @Test
  void onStoredSeesEachPushStoredWholeBeforeItIsAnsweredAndNoRejectedOne() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (FakeLoki loki =
        FakeLoki.builder()
            .clock(FIXED)
            .onStored(streams -> streams.forEach(s -> s.entries().forEach(e -> seen.add(e.line()))))
            .start()) {
      assertThat(postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "stored")).statusCode())
          .isEqualTo(204);
      assertThat(seen).containsExactly("stored"); // the answer came after the call
      assertThat(
              postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS - hours(24 * 8), "too old"))
                  .statusCode())
          .isEqualTo(400);
      assertThat(seen).containsExactly("stored");
    }
  }

  @Test
  void uriIsTheBaseAndPushUriTheIngestionPath() throws Exception {
    try (FakeLoki loki = FakeLoki.start()) {
      assertThat(loki.uri().getPath()).isEmpty();
      assertThat(loki.uri().getHost()).isEqualTo("127.0.0.1");
      assertThat(loki.baseUri()).isEqualTo(loki.uri());
      assertThat(loki.pushUri()).isEqualTo(loki.uri().resolve(FakeLoki.PUSH_PATH));
    }
  }

  @Test
  void aPortOutsideTheTcpRangeIsRefused() {
    assertThatThrownBy(() -> FakeLoki.builder().port(65_536))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0..65535");
  }
}
