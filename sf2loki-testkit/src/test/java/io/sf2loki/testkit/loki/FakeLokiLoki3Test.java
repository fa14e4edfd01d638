package io.sf2loki.testkit.loki;

import static io.sf2loki.testkit.loki.WireBodies.json;
import static io.sf2loki.testkit.loki.WireBodies.post;
import static io.sf2loki.testkit.loki.WireBodies.postJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.ScaledTimeout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake plays Loki 3's defaults and a blocked tenant as Loki 3.x's distributor does. */
@ScaledTimeout(seconds = 10)
class FakeLokiLoki3Test {

  static final Instant NOW = FakeLokiIngestTest.NOW;
  static final long NOW_NANOS = FakeLokiIngestTest.NOW_NANOS;

  FakeLoki loki = start(b -> b.version(LokiVersion.V3));

  static FakeLoki start(UnaryOperator<FakeLoki.Builder> options) {
    try {
      return options.apply(FakeLoki.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC))).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterEach
  void close() {
    loki.close();
  }

  /** A JSON push of one stream whose entries are {@code [ts, line, metadata]} JSON arrays. */
  static String push(String streamJson, String... values) {
    return "{\"streams\":[{\"stream\":"
        + streamJson
        + ",\"values\":["
        + String.join(",", values)
        + "]}]}";
  }

  static String value(long nanos, String line, String metadataJson) {
    return "[\"" + nanos + "\"," + line + "," + metadataJson + "]";
  }

  static String quoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  Map<String, String> onlyLabels() {
    assertThat(loki.entries()).hasSize(1);
    return loki.entries().get(0).labels();
  }

  @Test
  void aBlockedTenantsPushIsAnswered260WithLokisTextAndNothingIsStored() throws Exception {
    loki.blockIngestion("tenant-1", Instant.parse("2026-05-01T15:30:00Z"));

    HttpResponse<String> r = postJson(loki, json("{\"job\":\"sf2loki\"}", NOW_NANOS, "l"));

    assertThat(r.statusCode()).isEqualTo(260);
    assertThat(r.body())
        .isEqualTo(
            "ingestion blocked for user 'tenant-1' until '2026-05-01T15:30:00Z' with status code"
                + " '260'\n");
    assertThat(loki.entries()).isEmpty();
    assertThat(loki.pushes().get(0).status()).hasValue(260);
  }

  @Test
  void aBlockThatHasEndedOrNamesAnotherTenantStopsNothing() throws Exception {
    loki.blockIngestion("tenant-1", NOW);
    loki.blockIngestion("other", NOW.plusSeconds(3600));

    HttpResponse<String> r = postJson(loki, json("{\"job\":\"sf2loki\"}", NOW_NANOS, "l"));

    assertThat(r.statusCode()).isEqualTo(204);
    assertThat(loki.lines()).containsExactly("l");
  }

  @Test
  void aSingleTenantPushIsTenantFakeAndALiftedBlockStopsNothing() throws Exception {
    loki.blockIngestion("fake", NOW.plusSeconds(60));
    byte[] body = json("{\"job\":\"sf2loki\"}", NOW_NANOS, "l").getBytes(StandardCharsets.UTF_8);

    assertThat(post(loki.pushUri(), "application/json", null, body, null).body())
        .contains("for user 'fake'");
    loki.unblockIngestion("fake");
    assertThat(post(loki.pushUri(), "application/json", null, body, null).statusCode())
        .isEqualTo(204);
  }

  @Test
  void aValidationErrorTakesPrecedenceOverTheBlock() throws Exception {
    loki.blockIngestion("tenant-1", NOW.plusSeconds(60));

    HttpResponse<String> r = postJson(loki, json("{\"1bad\":\"x\"}", NOW_NANOS, "l"));

    assertThat(r.statusCode()).isEqualTo(400);
  }

  @Test
  void serviceNameIsDiscoveredFromTheFirstOfLokisLabels() throws Exception {
    postJson(loki, json("{\"job\":\"sf2loki\",\"app\":\"crm\"}", NOW_NANOS, "l"));

    assertThat(onlyLabels()).containsEntry("service_name", "crm");
  }

  @Test
  void serviceNameFallsBackToJob() throws Exception {
    postJson(loki, json("{\"job\":\"sf2loki\",\"source\":\"apexlog\"}", NOW_NANOS, "l"));

    assertThat(onlyLabels()).containsEntry("service_name", "sf2loki");
  }

  @Test
  void aServiceNameTheClientSetIsKept() throws Exception {
    postJson(loki, json("{\"job\":\"sf2loki\",\"service_name\":\"salesforce\"}", NOW_NANOS, "l"));

    assertThat(onlyLabels()).containsEntry("service_name", "salesforce");
  }

  @Test
  void withoutAnyCandidateLabelTheServiceIsUnknown() throws Exception {
    postJson(loki, json("{\"source\":\"apexlog\"}", NOW_NANOS, "l"));

    assertThat(onlyLabels()).containsEntry("service_name", "unknown_service");
  }

  @Test
  void loki29ModeStoresLabelsAndMetadataAsPushed() throws Exception {
    loki.close();
    loki = start(b -> b.version(LokiVersion.V2_9));

    postJson(loki, json("{\"job\":\"sf2loki\"}", NOW_NANOS, "error l"));

    assertThat(loki.entries().get(0).labels()).isEqualTo(Map.of("job", "sf2loki"));
    assertThat(loki.entries().get(0).metadata()).isEqualTo(Map.of("level", "info"));
  }

  @Test
  void detectedLevelComesFromALevelMetadataPair() throws Exception {
    postJson(loki, json("{\"job\":\"sf2loki\"}", NOW_NANOS, "an error line"));

    assertThat(loki.entries().get(0).metadata()).containsEntry("detected_level", "info");
  }

  @Test
  void detectedLevelComesFromAJsonLinesLevelField() throws Exception {
    postJson(
        loki,
        push("{\"job\":\"sf2loki\"}", value(NOW_NANOS, quoted("{\"level\":\"WARNING\"}"), "{}")));

    assertThat(loki.entries().get(0).metadata()).containsEntry("detected_level", "warn");
  }

  @Test
  void detectedLevelComesFromTheFirstLevelWordOfAPlainLine() throws Exception {
    postJson(
        loki,
        push(
            "{\"job\":\"sf2loki\"}",
            value(NOW_NANOS, quoted("login failed: error, info follows"), "{}"),
            value(NOW_NANOS + 1, quoted("nothing to see"), "{}")));

    assertThat(loki.entries().get(0).metadata()).containsEntry("detected_level", "error");
    assertThat(loki.entries().get(1).metadata()).containsEntry("detected_level", "unknown");
  }

  @Test
  void aStreamPushedFasterThanTheDesiredRateIsShardedIntoStreamShardStreams() throws Exception {
    loki.close();
    loki = start(b -> b.version(LokiVersion.V3).shardDesiredRate(20));
    String[] values = new String[4];
    for (int i = 0; i < 4; i++) {
      values[i] = value(NOW_NANOS + i, quoted("line-0000" + i), "{}"); // 10 bytes each
    }

    assertThat(postJson(loki, push("{\"job\":\"sf2loki\"}", values)).statusCode()).isEqualTo(204);

    assertThat(loki.entries())
        .extracting(e -> e.labels().get("__stream_shard__"))
        .containsExactly("0", "0", "1", "1");
    // A selector that does not name the shard label still matches every entry.
    assertThat(loki.entries())
        .allSatisfy(e -> assertThat(e.labels()).containsEntry("job", "sf2loki"));
  }

  @Test
  void aStreamWithinTheDesiredRateIsNotSharded() throws Exception {
    postJson(loki, json("{\"job\":\"sf2loki\"}", NOW_NANOS, "l"));

    assertThat(onlyLabels()).doesNotContainKey("__stream_shard__");
  }

  @Test
  void fifteenLabelNamesPlusServiceNameAreAcceptedAsLoki3DoesNotCountServiceName()
      throws Exception {
    StringBuilder labels = new StringBuilder("{\"service_name\":\"s\"");
    for (int i = 0; i < 15; i++) {
      labels.append(",\"l").append(i).append("\":\"v\"");
    }

    assertThat(postJson(loki, json(labels + "}", NOW_NANOS, "l")).statusCode()).isEqualTo(204);
  }

  @Test
  void sixteenLabelNamesAreRefusedWithLokisTextCountingThemWithoutServiceName() throws Exception {
    StringBuilder labels = new StringBuilder("{\"job\":\"j\"");
    for (int i = 0; i < 15; i++) {
      labels.append(",\"l").append(i).append("\":\"v\"");
    }

    HttpResponse<String> r = postJson(loki, json(labels + "}", NOW_NANOS, "l"));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).endsWith("service_name=\"j\"}' has 16 label names; limit 15\n");
  }

  @Test
  void anEntryOver128MetadataPairsIsRefusedWithLokisTextAndTheRestIsStored() throws Exception {
    StringBuilder many = new StringBuilder("{");
    for (int i = 0; i < 129; i++) {
      many.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
    }
    many.append('}');

    HttpResponse<String> r =
        postJson(
            loki,
            push(
                "{\"job\":\"sf2loki\"}",
                value(NOW_NANOS, quoted("too many"), many.toString()),
                value(NOW_NANOS + 1, quoted("fine"), "{\"k\":\"v\"}")));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body())
        .isEqualTo(
            "stream '{job=\"sf2loki\", service_name=\"sf2loki\"}' has too many structured metadata"
                + " labels: '129', limit: '128'. Please see"
                + " `limits_config.max_structured_metadata_entries_count` or contact your Loki"
                + " administrator to increase it\n");
    assertThat(loki.lines()).containsExactly("fine");
  }
}
