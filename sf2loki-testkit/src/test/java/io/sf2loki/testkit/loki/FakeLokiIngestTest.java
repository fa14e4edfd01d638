package io.sf2loki.testkit.loki;

import static io.sf2loki.testkit.loki.WireBodies.json;
import static io.sf2loki.testkit.loki.WireBodies.jsonStream;
import static io.sf2loki.testkit.loki.WireBodies.postJson;
import static io.sf2loki.testkit.loki.WireBodies.postProtobuf;
import static io.sf2loki.testkit.loki.WireBodies.protobuf;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.ScaledTimeout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

@ScaledTimeout(seconds = 10)
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

  static long hours(long n) {
    return Duration.ofHours(n).toNanos();
  }

  static long minutes(long n) {
    return Duration.ofMinutes(n).toNanos();
  }

  static long seconds(long n) {
    return Duration.ofSeconds(n).toNanos();
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
  void overlongLineIsAnsweredWithLokisMaxEntrySizeText() throws Exception {
    FakeLoki small = startFake(LokiLimits.defaults().withMaxLineBytes(5));
    try {
      HttpResponse<String> r = postJson(small, json("{\"a\":\"b\"}", NOW_NANOS, "too long"));

      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body())
          .isEqualTo(
              "Max entry size '5' bytes exceeded for stream '{a=\"b\"}' while adding an entry"
                  + " with length '8' bytes\n");
    } finally {
      small.close();
    }
  }

  @Test
  void validEntriesOfARejectedRequestAreStored() throws Exception {
    postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "new"));
    String request =
        jsonStream(
            "{\"a\":\"b\"}",
            NOW_NANOS - hours(169),
            NOW_NANOS - minutes(10),
            NOW_NANOS - minutes(61),
            NOW_NANOS - minutes(5));

    HttpResponse<String> r = postJson(loki, request);

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body())
        .isEqualTo(
            """
            entry with timestamp 2026-05-01 10:59:00 +0000 UTC ignored, reason: 'entry too far behind, entry timestamp is: 2026-05-01T10:59:00Z, oldest acceptable timestamp is: 2026-05-01T11:00:00Z',
            user 'tenant-1', total ignored: 1 out of 3 for stream: {a="b"}
            entry for stream '{a="b"}' has timestamp too old: 2026-04-24T11:00:00Z, oldest acceptable timestamp is: 2026-04-24T12:00:00Z
            """);
    assertThat(loki.lines()).containsExactly("new", "e1", "e3");
    assertThat(loki.stats().rejected()).isEqualTo(2);
  }

  @Test
  void invalidLabelNameIsRejected() throws Exception {
    HttpResponse<String> r = postJson(loki, json("{\"1bad\":\"x\"}", NOW_NANOS, "l"));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body())
        .isEqualTo(
            "Error parsing labels '{\"1bad\"=\"x\"}' with error: invalid label name \"1bad\"\n");
  }

  @Test
  void moreThanFifteenLabelsAreRejected() throws Exception {
    StringBuilder labels = new StringBuilder("{");
    for (int i = 0; i < 16; i++) {
      labels.append(i == 0 ? "" : ",").append("\"l").append(i).append("\":\"v\"");
    }
    HttpResponse<String> r = postJson(loki, json(labels + "}", NOW_NANOS, "l"));

    assertThat(r.body())
        .isEqualTo(
            "entry for stream '{l0=\"v\", l1=\"v\", l10=\"v\", l11=\"v\", l12=\"v\", l13=\"v\","
                + " l14=\"v\", l15=\"v\", l2=\"v\", l3=\"v\", l4=\"v\", l5=\"v\", l6=\"v\","
                + " l7=\"v\", l8=\"v\", l9=\"v\"}' has 16 label names; limit 15\n");
  }

  @Test
  void sampleOlderThanSevenDaysGetsLokisTooOldText() throws Exception {
    long old = NOW_NANOS - hours(169) + 999_999_999; // the fraction is truncated, not rounded

    HttpResponse<String> r = postJson(loki, json("{\"a\":\"b\"}", old, "l"));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body())
        .isEqualTo(
            "entry for stream '{a=\"b\"}' has timestamp too old: 2026-04-24T11:00:00Z, oldest"
                + " acceptable timestamp is: 2026-04-24T12:00:00Z\n");
  }

  @Test
  void sampleBeyondTheGracePeriodGetsLokisTooNewText() throws Exception {
    long future = NOW_NANOS + minutes(11);

    HttpResponse<String> r = postJson(loki, json("{\"a\":\"b\"}", future, "l"));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body())
        .isEqualTo("entry for stream '{a=\"b\"}' has timestamp too new: 2026-05-01T12:11:00Z\n");
  }

  @Test
  void labelsInRejectionTextsAreQuotedAsPrometheusPrintsThem() throws Exception {
    String labels = "{\"b\":\"q\\\"x\\ny\",\"a\":\"1\"}";

    HttpResponse<String> r = postJson(loki, json(labels, NOW_NANOS + minutes(11), "l"));

    assertThat(r.body())
        .isEqualTo(
            "entry for stream '{a=\"1\", b=\"q\\\"x\\ny\"}' has timestamp too new:"
                + " 2026-05-01T12:11:00Z\n");
  }

  @Test
  void eachValidationKindIsListedAtMostFiveTimes() throws Exception {
    long[] nanos = new long[8];
    for (int i = 0; i < 7; i++) {
      nanos[i] = NOW_NANOS - hours(169) - seconds(i);
    }
    nanos[7] = NOW_NANOS + minutes(11);

    HttpResponse<String> r = postJson(loki, jsonStream("{\"a\":\"b\"}", nanos));

    assertThat(r.body().lines().filter(l -> l.contains("has timestamp too old"))).hasSize(5);
    assertThat(r.body().lines().filter(l -> l.contains("has timestamp too new"))).hasSize(1);
    assertThat(loki.stats().rejected()).isEqualTo(8);
  }

  @Test
  void entryOlderThanTheStreamsNewestMinusOneHourIsTooFarBehind() throws Exception {
    postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "new"));
    long behind = NOW_NANOS - minutes(61);

    assertThat(postJson(loki, json("{\"a\":\"b\"}", behind, "late")).body())
        .startsWith("entry with timestamp 2026-05-01 10:59:00 +0000 UTC ignored");
    assertThat(postJson(loki, json("{\"a\":\"c\"}", behind, "other stream")).statusCode())
        .isEqualTo(204);
  }

  @Test
  void tooFarBehindBlockListsEachEntryThenTheTotalAndTheTenant() throws Exception {
    postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "new"));
    String request =
        jsonStream(
            "{\"a\":\"b\"}",
            NOW_NANOS - minutes(61),
            NOW_NANOS - minutes(30),
            NOW_NANOS - minutes(62) + 500_000_000);

    HttpResponse<String> r = postJson(loki, request);

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body())
        .isEqualTo(
            """
            entry with timestamp 2026-05-01 10:59:00 +0000 UTC ignored, reason: 'entry too far behind, entry timestamp is: 2026-05-01T10:59:00Z, oldest acceptable timestamp is: 2026-05-01T11:00:00Z',
            entry with timestamp 2026-05-01 10:58:00.5 +0000 UTC ignored, reason: 'entry too far behind, entry timestamp is: 2026-05-01T10:58:00Z, oldest acceptable timestamp is: 2026-05-01T11:00:00Z',
            user 'tenant-1', total ignored: 2 out of 3 for stream: {a="b"}
            """);
  }

  @Test
  void tooFarBehindBlockNamesTheTenantFakeWithoutAnOrgIdHeader() throws Exception {
    postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "new"));
    byte[] late = json("{\"a\":\"b\"}", NOW_NANOS - hours(2), "late").getBytes(UTF_8);

    HttpResponse<String> r = WireBodies.post(loki.pushUri(), "application/json", null, late, null);

    assertThat(r.body())
        .endsWith("\nuser 'fake', total ignored: 1 out of 1 for stream: {a=\"b\"}\n");
  }

  @Test
  void tooFarBehindBlockListsTenEntriesButCountsThemAll() throws Exception {
    postJson(loki, json("{\"a\":\"b\"}", NOW_NANOS, "new"));
    long[] nanos = new long[12];
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] = NOW_NANOS - hours(2) + seconds(i);
    }

    List<String> lines = postJson(loki, jsonStream("{\"a\":\"b\"}", nanos)).body().lines().toList();

    assertThat(lines).hasSize(11);
    assertThat(lines.subList(0, 10)).allMatch(l -> l.startsWith("entry with timestamp "));
    assertThat(lines.get(9)).startsWith("entry with timestamp 2026-05-01 10:00:09 +0000 UTC");
    assertThat(lines.get(10))
        .isEqualTo("user 'tenant-1', total ignored: 12 out of 12 for stream: {a=\"b\"}");
  }

  @Test
  void newestAdvancesWithTheAcceptedEntriesOfTheSameRequest() throws Exception {
    String request = jsonStream("{\"a\":\"b\"}", NOW_NANOS, NOW_NANOS - minutes(61));

    HttpResponse<String> r = postJson(loki, request);

    assertThat(r.body())
        .isEqualTo(
            """
            entry with timestamp 2026-05-01 10:59:00 +0000 UTC ignored, reason: 'entry too far behind, entry timestamp is: 2026-05-01T10:59:00Z, oldest acceptable timestamp is: 2026-05-01T11:00:00Z',
            user 'tenant-1', total ignored: 1 out of 2 for stream: {a="b"}
            """);
    assertThat(loki.lines()).containsExactly("e0");
  }

  /** A request of stream {a=b} then {a=c}, each with entries at the given offsets from now. */
  static String twoStreams(long[] first, long[] second) {
    return "{\"streams\":[" + stream("b", first) + "," + stream("c", second) + "]}";
  }

  private static String stream(String value, long[] nanos) {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < nanos.length; i++) {
      values
          .append(i == 0 ? "" : ",")
          .append("[\"")
          .append(nanos[i])
          .append("\",\"")
          .append(value + i)
          .append("\"]");
    }
    return "{\"stream\":{\"a\":\"" + value + "\"},\"values\":[" + values + "]}";
  }

  @Test
  void onlyTheLastStreamsTooFarBehindEntriesAreReportedAsByLokisIngester() throws Exception {
    postJson(loki, twoStreams(new long[] {NOW_NANOS}, new long[] {NOW_NANOS}));
    long late = NOW_NANOS - hours(2);

    HttpResponse<String> r =
        postJson(loki, twoStreams(new long[] {late}, new long[] {late, NOW_NANOS}));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body().lines().filter(l -> l.startsWith("user ")))
        .containsExactly("user 'tenant-1', total ignored: 1 out of 2 for stream: {a=\"c\"}");
  }

  @Test
  void anEarlierStreamsTooFarBehindEntriesAreLostBehindA204WhenTheLastStreamIsFine()
      throws Exception {
    postJson(loki, twoStreams(new long[] {NOW_NANOS}, new long[] {NOW_NANOS}));

    HttpResponse<String> r =
        postJson(loki, twoStreams(new long[] {NOW_NANOS - hours(2)}, new long[] {NOW_NANOS + 1}));

    assertThat(r.statusCode()).isEqualTo(204);
    assertThat(loki.entries()).hasSize(3);
    assertThat(loki.stats().rejected()).isEqualTo(1);
  }

  @Test
  void narrowerOutOfOrderWindowMovesTheOldestAcceptableTimestamp() throws Exception {
    FakeLoki narrow = startFake(LokiLimits.defaults().withOutOfOrderWindow(Duration.ofMinutes(5)));
    try {
      postJson(narrow, json("{\"a\":\"b\"}", NOW_NANOS, "new"));

      HttpResponse<String> r =
          postJson(narrow, json("{\"a\":\"b\"}", NOW_NANOS - minutes(6), "late"));

      assertThat(r.body()).contains("oldest acceptable timestamp is: 2026-05-01T11:55:00Z'");
    } finally {
      narrow.close();
    }
  }

  @Test
  void structuredMetadataAboveTheSizeLimitIsRejected() throws Exception {
    String big = "x".repeat(65 * 1024);
    byte[] body = protobuf("{a=\"b\"}", NOW_NANOS, "l", "big", big);

    assertThat(postProtobuf(loki, body).body())
        .startsWith(
            "stream '{a=\"b\"}' has structured metadata too large: '66563' bytes, limit: '65536'"
                + " bytes.");
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
