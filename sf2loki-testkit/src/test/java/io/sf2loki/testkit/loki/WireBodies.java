package io.sf2loki.testkit.loki;

import com.github.loki4j.pkg.google.protobuf.Timestamp;
import com.github.loki4j.pkg.loki.protobuf.Push;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.Snappy;

/** Hand-built push bodies and a tiny JDK client, so the fake is tested without sf2loki code. */
final class WireBodies {

  static final HttpClient HTTP = HttpClient.newHttpClient();

  private WireBodies() {}

  static byte[] protobuf(String labels, long nanos, String line, String smName, String smValue)
      throws IOException {
    Push.EntryAdapter.Builder entry =
        Push.EntryAdapter.newBuilder()
            .setTimestamp(
                Timestamp.newBuilder()
                    .setSeconds(nanos / 1_000_000_000L)
                    .setNanos((int) (nanos % 1_000_000_000L)))
            .setLine(line);
    if (smName != null) {
      entry.addStructuredMetadata(
          Push.LabelPairAdapter.newBuilder().setName(smName).setValue(smValue));
    }
    Push.PushRequest req =
        Push.PushRequest.newBuilder()
            .addStreams(Push.StreamAdapter.newBuilder().setLabels(labels).addEntries(entry))
            .build();
    return Snappy.compress(req.toByteArray());
  }

  static String json(String streamJson, long nanos, String line) {
    return "{\"streams\":[{\"stream\":"
        + streamJson
        + ",\"values\":[[\""
        + nanos
        + "\",\""
        + line
        + "\",{\"level\":\"info\"}]]}]}";
  }

  /** One stream whose entry {@code i} is at {@code nanos[i]} with line {@code e<i>}. */
  static String jsonStream(String streamJson, long... nanos) {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < nanos.length; i++) {
      values.append(i == 0 ? "" : ",").append("[\"").append(nanos[i]).append("\",\"e");
      values.append(i).append("\"]");
    }
    return "{\"streams\":[{\"stream\":" + streamJson + ",\"values\":[" + values + "]}]}";
  }

  static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  static HttpResponse<String> post(URI uri, String type, String encoding, byte[] body)
      throws IOException, InterruptedException {
    return post(uri, type, encoding, body, "tenant-1");
  }

  /** A push as {@code tenant}; null sends no {@code X-Scope-OrgID}. */
  static HttpResponse<String> post(
      URI uri, String type, String encoding, byte[] body, String tenant)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (tenant != null) {
      b.header("X-Scope-OrgID", tenant);
    }
    if (encoding != null) {
      b.header("Content-Encoding", encoding);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> postProtobuf(FakeLoki loki, byte[] body)
      throws IOException, InterruptedException {
    return post(loki.pushUri(), "application/x-protobuf", "snappy", body);
  }

  static HttpResponse<String> postJson(FakeLoki loki, String body)
      throws IOException, InterruptedException {
    return post(loki.pushUri(), "application/json", null, body.getBytes(StandardCharsets.UTF_8));
  }

  static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }
}
