package io.sf2loki.testkit.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The fake OTLP logs receiver's read-only view, in the fake Loki's shape so the simulator's {@code
 * report} reads either: {@code GET /testkit/stats} ({@code streams} — distinct Loki label sets —,
 * {@code entries}, {@code bytes} of bodies) and {@code GET /testkit/entries} (one JSON object per
 * line: the record's Loki {@code labels} and its body as {@code line}).
 */
final class LogsInspection {

  static final String STATS = "/testkit/stats";
  static final String ENTRIES = "/testkit/entries";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Supplier<List<ReceivedLogRecord>> records;

  LogsInspection(Supplier<List<ReceivedLogRecord>> records) {
    this.records = records;
  }

  void stats(HttpExchange ex) throws IOException {
    try (ex) {
      List<ReceivedLogRecord> all = records.get();
      Set<Map<String, String>> streams = new HashSet<>();
      long bytes = 0;
      for (ReceivedLogRecord r : all) {
        streams.add(r.lokiLabels());
        bytes += r.body().getBytes(StandardCharsets.UTF_8).length;
      }
      ObjectNode n = JSON.createObjectNode();
      n.put("streams", streams.size());
      n.put("entries", all.size());
      n.put("bytes", bytes);
      n.put("duplicates", 0);
      n.put("rejected", 0);
      send(ex, JSON.writeValueAsBytes(n));
    }
  }

  void entries(HttpExchange ex) throws IOException {
    try (ex) {
      StringBuilder out = new StringBuilder();
      for (ReceivedLogRecord r : records.get()) {
        ObjectNode n = JSON.createObjectNode();
        n.set("labels", JSON.valueToTree(new TreeMap<>(r.lokiLabels())));
        n.put("line", r.body());
        out.append(JSON.writeValueAsString(n)).append('\n');
      }
      send(ex, out.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void send(HttpExchange ex, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      ex.getResponseBody().write(body);
    }
  }
}
