package io.sf2loki.testkit.loki;

import static io.sf2loki.testkit.loki.WireBodies.json;
import static io.sf2loki.testkit.loki.WireBodies.postJson;
import static io.sf2loki.testkit.loki.WireBodies.postProtobuf;
import static io.sf2loki.testkit.loki.WireBodies.protobuf;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

class FakeLokiIngestTest {

  static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");
  static final long NOW_NANOS = NOW.getEpochSecond() * 1_000_000_000L;

  final FakeLoki loki = startFake(LokiLimits.defaults());

  static FakeLoki startFake(LokiLimits limits) {
    try {
      return FakeLoki.start(0, limits, Clock.fixed(NOW, ZoneOffset.UTC));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterEach
  void close() {
    loki.close();
  }

  @Test
  void protobufSnappyPushIsDecodedWithLabelsAndStructuredMetadata() throws Exception {
    byte[] body = protobuf("{job=\"sf2loki\",source=\"pubsub\"}", NOW_NANOS + 7, "hi", "k", "v");

    HttpResponse<String> r = postProtobuf(loki, body);

    assertThat(r.statusCode()).isEqualTo(204);
    assertThat(loki.entries())
        .containsExactly(
            new AcceptedEntry(
                Map.of("job", "sf2loki", "source", "pubsub"),
                NOW_NANOS + 7,
                "hi",
                Map.of("k", "v")));
    assertThat(loki.pushes().get(0).header("X-Scope-OrgID")).contains("tenant-1");
  }

  @Test
  void escapedLabelValuesAreParsedFromTheSelector() throws Exception {
    postProtobuf(loki, protobuf("{a=\"q\\\"x\\\\y\\nz\"}", NOW_NANOS, "l", null, null));

    assertThat(loki.entries().get(0).labels()).containsEntry("a", "q\"x\\y\nz");
  }

  @Test
  void framedSnappyStreamIsRejectedAsUndecodable() throws Exception {
    byte[] raw = protobuf("{a=\"b\"}", NOW_NANOS, "l", null, null);
    byte[] framed = new byte[raw.length + 10];
    System.arraycopy(raw, 0, framed, 10, raw.length);
    framed[0] = (byte) 0xff;

    assertThat(postProtobuf(loki, framed).statusCode()).isEqualTo(400);
    assertThat(loki.entries()).isEmpty();
    assertThat(Snappy.isValidCompressedBuffer(raw)).isTrue();
  }

  @Test
  void jsonPlainAndGzipBodiesDecodeToTheSameEntry() throws Exception {
    String body = json("{\"job\":\"x\"}", NOW_NANOS, "line");
    postJson(loki, body);
    FakeLoki other = startFake(LokiLimits.defaults());
    try {
      WireBodies.post(other.pushUri(), "application/json", "gzip", WireBodies.gzip(body));
      assertThat(other.entries()).isEqualTo(loki.entries());
      assertThat(loki.entries().get(0).metadata()).containsEntry("level", "info");
    } finally {
      other.close();
    }
  }

  @Test
  void exactDuplicatesAreDroppedAndCounted() throws Exception {
    String body = json("{\"job\":\"x\"}", NOW_NANOS, "same");
    postJson(loki, body);

    assertThat(postJson(loki, body).statusCode()).isEqualTo(204);
    assertThat(loki.stats()).isEqualTo(new FakeLokiStats(1, 1, 4, 1, 0));
  }

  @Test
  void overlongLineIsRejectedWhileValidEntriesOfTheRequestAreStored() throws Exception {
    FakeLoki small = startFake(LokiLimits.defaults().withMaxLineBytes(5));
    try {
      String body =
          "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[\""
              + NOW_NANOS
              + "\",\"short\"],[\""
              + (NOW_NANOS + 1)
              + "\",\"too long\"]]}]}";
      HttpResponse<String> r = postJson(small, body);
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).contains("line_too_long");
      assertThat(small.lines()).containsExactly("short");
      assertThat(small.stats().rejected()).isEqualTo(1);
    } finally {
      small.close();
    }
  }

  @Test
  void invalidLabelNameIsRejected() throws Exception {
    HttpResponse<String> r = postJson(loki, json("{\"1bad\":\"x\"}", NOW_NANOS, "l"));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("invalid_labels");
  }

  @Test
  void moreThanFifteenLabelsAreRejected() throws Exception {
    StringBuilder labels = new StringBuilder("{");
    for (int i = 0; i < 16; i++) {
      labels.append(i == 0 ? "" : ",").append("\"l").append(i).append("\":\"v\"");
    }
    HttpResponse<String> r = postJson(loki, json(labels + "}", NOW_NANOS, "l"));

    assertThat(r.body()).contains("max_label_names_per_series");
  }

  @Test
  void samplesOlderThanSevenDaysAreRejected() throws Exception {
    long old = NOW_NANOS - Duration.ofHours(169).toNanos();

    assertThat(postJson(loki, json("{\"a\":\"b\"}", old, "l")).body())
        .contains("greater_than_max_sample_age");
  }

  @Test
  void samplesTooFarInTheFutureAreRejected() throws Exception {
    long future = NOW_NANOS + Duration.ofMinutes(11).toNanos();

    assertThat(postJson(loki, json("{\"a\":\"b\"}", future, "l")).body())
        .contains("too_far_in_future");
  }

  @Test
  void entryOlderThanTheStreamsNewestMinusOneHourIsTooFarBehind() throws Exception {
    postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "new"));
    long behind = NOW_NANOS - Duration.ofMinutes(61).toNanos();

    assertThat(postJson(loki, json("{\"a\":\"b\"}", behind, "late")).body())
        .contains("too_far_behind");
    assertThat(postJson(loki, json("{\"a\":\"c\"}", behind, "other stream")).statusCode())
        .isEqualTo(204);
  }

  @Test
  void structuredMetadataAboveTheSizeLimitIsRejected() throws Exception {
    String big = "x".repeat(65 * 1024);
    byte[] body = protobuf("{a=\"b\"}", NOW_NANOS, "l", "big", big);

    assertThat(postProtobuf(loki, body).body()).contains("structured_metadata_too_large");
  }

  @Test
  void decompressedBodyOverTheRequestCapGets413() throws Exception {
    FakeLoki small = startFake(LokiLimits.defaults().withMaxRequestBytes(100));
    try {
      byte[] body = protobuf("{a=\"b\"}", NOW_NANOS, "x".repeat(200), null, null);
      assertThat(postProtobuf(small, body).statusCode()).isEqualTo(413);
    } finally {
      small.close();
    }
  }

  @Test
  void unknownContentTypeIsRejected() throws Exception {
    HttpResponse<String> r =
        WireBodies.post(
            loki.pushUri(), "text/plain", null, "hello".getBytes(StandardCharsets.UTF_8));

    assertThat(r.statusCode()).isEqualTo(400);
  }
}
