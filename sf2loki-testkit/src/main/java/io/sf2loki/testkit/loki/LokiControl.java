package io.sf2loki.testkit.loki;

import static io.sf2loki.testkit.loki.LokiExchanges.respond;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The fake Loki's HTTP control surface, for tools outside its JVM: {@code GET /testkit/entries}
 * (JSON lines), {@code GET /testkit/stats}, {@code POST} and {@code DELETE /testkit/faults}.
 */
final class LokiControl {

  static final ObjectMapper JSON = new ObjectMapper();

  private final FakeLoki loki;

  LokiControl(FakeLoki loki) {
    this.loki = loki;
  }

  void entries(HttpExchange ex) throws IOException {
    try (ex) {
      StringBuilder out = new StringBuilder();
      for (AcceptedEntry e : loki.entries()) {
        ObjectNode node = JSON.createObjectNode();
        node.set("labels", JSON.valueToTree(new TreeMap<>(e.labels())));
        node.put("timestamp", Long.toString(e.timestampNanos()));
        node.put("line", e.line());
        node.set("structured_metadata", JSON.valueToTree(new TreeMap<>(e.metadata())));
        out.append(JSON.writeValueAsString(node)).append('\n');
      }
      respond(ex, 200, "application/x-ndjson", out.toString());
    }
  }

  void stats(HttpExchange ex) throws IOException {
    try (ex) {
      FakeLokiStats s = loki.stats();
      ObjectNode node = JSON.createObjectNode();
      node.put("streams", s.streams());
      node.put("entries", s.entries());
      node.put("bytes", s.bytes());
      node.put("duplicates", s.duplicates());
      node.put("rejected", s.rejected());
      respond(ex, 200, "application/json", JSON.writeValueAsString(node));
    }
  }

  void faults(HttpExchange ex) throws IOException {
    try (ex) {
      switch (ex.getRequestMethod()) {
        case "DELETE" -> {
          loki.clearFaults();
          respond(ex, 204, "text/plain", "");
        }
        case "POST" -> {
          try {
            JsonNode node = JSON.readTree(ex.getRequestBody());
            JsonNode fault = node == null ? JSON.createObjectNode() : node;
            if (fault.hasNonNull("reject_line_contains")) {
              loki.rejectEntries(
                  new EntryRejection(
                      fault.get("reject_line_contains").asText(), fault.path("status").asInt(400)));
            } else {
              loki.inject(fault(fault));
            }
            respond(ex, 204, "text/plain", "");
          } catch (IOException | IllegalArgumentException e) {
            respond(ex, 400, "text/plain", "bad fault: " + e.getMessage() + "\n");
          }
        }
        default -> respond(ex, 405, "text/plain", "use POST or DELETE\n");
      }
    }
  }

  /**
   * Parses the JSON form of a {@link Fault}; unknown fields are ignored.
   *
   * @throws IllegalArgumentException when it names no fault, or two that exclude each other
   */
  static Fault fault(JsonNode node) {
    int count = node.path("count").asInt(1);
    boolean reset = node.path("reset").asBoolean(false);
    boolean lostAnswer = node.path("lost_answer").asBoolean(false);
    boolean status = node.hasNonNull("status");
    boolean latency = node.hasNonNull("latency_ms");
    Duration delay = Duration.ofMillis(node.path("latency_ms").asLong(0));
    Optional<String> retryAfter =
        node.hasNonNull("retry_after")
            ? Optional.of(node.get("retry_after").asText())
            : Optional.empty();
    if (reset) {
      if (status || latency || retryAfter.isPresent()) {
        throw new IllegalArgumentException(
            "reset drops the connection: it takes no status, retry_after or latency_ms");
      }
      return new Fault.DisconnectMidBody(count);
    }
    if (lostAnswer) {
      if (status || latency || retryAfter.isPresent()) {
        throw new IllegalArgumentException(
            "lost_answer drops the connection: it takes no status, retry_after or latency_ms");
      }
      return new Fault.LostAnswer(count);
    }
    if (status) {
      return new Fault.Status(node.get("status").asInt(), retryAfter, delay, count);
    }
    if (retryAfter.isPresent()) {
      throw new IllegalArgumentException("retry_after needs a status");
    }
    if (latency) {
      return new Fault.Latency(delay, count);
    }
    throw new IllegalArgumentException("a fault needs status, reset, lost_answer or latency_ms");
  }
}
