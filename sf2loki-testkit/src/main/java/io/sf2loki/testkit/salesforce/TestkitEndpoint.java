package io.sf2loki.testkit.salesforce;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fake's control surface: {@code POST /testkit/faults} schedules a fault ({@code {"route":
 * "logfile", "kind": "cut_mid_stream", "times": 1}}, see {@link #fault}), {@code DELETE
 * /testkit/faults} clears them, {@code GET /testkit/stats} reports files and rows produced per
 * event type plus request counters.
 */
final class TestkitEndpoint {

  private final FakeSalesforce fake;
  private final Exchanges http;

  TestkitEndpoint(FakeSalesforce fake, Exchanges http) {
    this.fake = fake;
    this.http = http;
  }

  void handle(HttpExchange ex, String path) throws IOException {
    String method = ex.getRequestMethod();
    if (path.equals("/testkit/faults") && method.equals("POST")) {
      addFault(ex);
    } else if (path.equals("/testkit/faults") && method.equals("DELETE")) {
      fake.faults().clear();
      http.json(ex, 200, "{\"cleared\":true}");
    } else if (path.equals("/testkit/stats") && method.equals("GET")) {
      http.json(ex, 200, Json.write(stats()));
    } else {
      http.json(ex, 404, "{\"error\":\"unknown testkit endpoint\"}");
    }
  }

  private void addFault(HttpExchange ex) throws IOException {
    Fault fault;
    try {
      fault = fault(Json.read(Exchanges.readBody(ex)));
    } catch (IOException | IllegalArgumentException e) {
      http.json(ex, 400, "{\"error\":" + Json.quote(String.valueOf(e.getMessage())) + "}");
      return;
    }
    fake.inject(fault);
    http.json(ex, 201, "{\"scheduled\":true}");
  }

  /**
   * Parses the JSON form of a {@link Fault}: {@code route} (default {@code any}), {@code kind}
   * (default {@code status}), {@code times} (default 1); {@code status} (default 500) and {@code
   * body} for a status, {@code delay_ms} for latency. Fields a kind does not use are ignored.
   *
   * @throws IllegalArgumentException for an unknown route or kind, or values the kind refuses
   */
  static Fault fault(JsonNode n) {
    Fault.Route route = Fault.Route.parse(n.path("route").asText("any"));
    Fault.Kind kind = Fault.Kind.parse(n.path("kind").asText("status"));
    int times = n.path("times").asInt(1);
    return switch (kind) {
      case STATUS ->
          new Fault.Status(route, n.path("status").asInt(500), n.path("body").asText(""), times);
      case NON_JSON, JSON_ARRAY, WRONG_SHAPE -> new Fault.Malformed(route, kind, times);
      case CUT_MID_STREAM -> new Fault.CutMidStream(route, times);
      case LATENCY ->
          new Fault.Latency(route, Duration.ofMillis(n.path("delay_ms").asLong(0)), times);
    };
  }

  /** Produced files/rows per event type (visible files only) and served counters. */
  Map<String, Object> stats() {
    Map<String, Map<String, Long>> elf = new TreeMap<>();
    for (LogFileSpec f : fake.visibleFiles()) {
      Map<String, Long> t = elf.computeIfAbsent(f.eventType(), k -> new TreeMap<>());
      t.merge("files", 1L, Long::sum);
      t.merge("rows", f.rows(), Long::sum);
    }
    Map<String, Object> out = new TreeMap<>(fake.stats().served());
    out.put("eventlogfile", elf);
    return out;
  }
}
