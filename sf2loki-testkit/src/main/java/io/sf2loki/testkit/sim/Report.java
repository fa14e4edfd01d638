package io.sf2loki.testkit.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code report (--loki-url URL | --otlp-url URL) [--salesforce-url URL] [--samples N]}: prints
 * what a running fake Loki holds (streams, entries per stream and per source, sample lines), or the
 * fake OTLP logs receiver (its records as Loki 3 would index them), and, given the fake Salesforce,
 * how many rows it generated. Needs only the JDK, so {@code just demo} works without curl or jq.
 */
final class Report {

  static final String USAGE =
      "usage: report (--loki-url URL | --otlp-url URL) [--salesforce-url URL] [--samples N]";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Report() {}

  /** Returns the exit code: 0 printed, 1 a fake could not be read, 2 usage. */
  static int run(List<String> args, PrintStream out, PrintStream err) {
    Map<String, String> options = new TreeMap<>();
    for (int i = 0; i + 1 < args.size(); i += 2) {
      options.put(args.get(i), args.get(i + 1));
    }
    if (options.containsKey("--loki-url") == options.containsKey("--otlp-url")
        || args.size() % 2 != 0) {
      err.println(USAGE);
      return 2;
    }
    int samples = Integer.parseInt(options.getOrDefault("--samples", "5"));
    try {
      new Report().print(options, samples, out);
      return 0;
    } catch (IOException e) {
      err.println("report: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  private void print(Map<String, String> options, int samples, PrintStream out)
      throws IOException, InterruptedException {
    boolean otlp = options.containsKey("--otlp-url");
    String loki = options.getOrDefault("--loki-url", options.get("--otlp-url"));
    JsonNode stats = JSON.readTree(get(loki + "/testkit/stats"));
    List<JsonNode> entries = new ArrayList<>();
    for (String line : get(loki + "/testkit/entries").split("\n")) {
      if (!line.isBlank()) {
        entries.add(JSON.readTree(line));
      }
    }
    out.printf(
        "%s: %d stream(s), %d entries (%d bytes), %d duplicate(s) dropped, %d rejected%n",
        otlp
            ? "fake OTLP receiver (streams as Loki 3 with the documented otlp_config)"
            : "fake Loki",
        stats.path("streams").asLong(),
        stats.path("entries").asLong(),
        stats.path("bytes").asLong(),
        stats.path("duplicates").asLong(),
        stats.path("rejected").asLong());
    Map<String, Integer> perStream = new TreeMap<>();
    for (JsonNode e : entries) {
      perStream.merge(e.path("labels").toString(), 1, Integer::sum);
    }
    perStream.forEach((labels, n) -> out.printf("  %6d  %s%n", n, labels));
    printBySource(entries, out);
    if (options.containsKey("--salesforce-url")) {
      JsonNode sf = JSON.readTree(get(options.get("--salesforce-url") + "/testkit/stats"));
      long rows = 0;
      long files = 0;
      for (JsonNode t : sf.path("eventlogfile")) {
        rows += t.path("rows").asLong();
        files += t.path("files").asLong();
      }
      out.printf("fake Salesforce: generated %d EventLogFile(s), %d rows so far%n", files, rows);
    }
    printSamples(entries, samples, out);
  }

  /**
   * One line per {@code source} label: its entries, and per {@code event_type} (a Pub/Sub topic's
   * last segment, an EventLogFile type, an event object), e.g. {@code pubsub: 42 entries
   * (AccountChangeEvent 9, LoginEventStream 23, Order_Shipped__e 10)}.
   */
  private static void printBySource(List<JsonNode> entries, PrintStream out) {
    Map<String, Map<String, Integer>> bySource = new TreeMap<>();
    for (JsonNode e : entries) {
      bySource
          .computeIfAbsent(e.path("labels").path("source").asText("?"), k -> new TreeMap<>())
          .merge(e.path("labels").path("event_type").asText("?"), 1, Integer::sum);
    }
    out.println("by source:");
    bySource.forEach(
        (source, types) -> {
          StringBuilder detail = new StringBuilder();
          types.forEach(
              (type, n) -> detail.append(detail.length() == 0 ? "" : ", ").append(type + " " + n));
          int total = types.values().stream().mapToInt(Integer::intValue).sum();
          out.printf("  %-18s %6d entries (%s)%n", source + ":", total, detail);
        });
  }

  /** The newest line of each stream in turn, so every stream shows up. */
  private static void printSamples(List<JsonNode> entries, int samples, PrintStream out) {
    Map<String, List<JsonNode>> byStream = new TreeMap<>();
    for (int i = entries.size() - 1; i >= 0; i--) {
      JsonNode e = entries.get(i);
      byStream.computeIfAbsent(e.path("labels").toString(), k -> new ArrayList<>()).add(e);
    }
    List<JsonNode> picked = new ArrayList<>();
    for (int round = 0; picked.size() < samples && round < entries.size(); round++) {
      for (List<JsonNode> stream : byStream.values()) {
        if (round < stream.size() && picked.size() < samples) {
          picked.add(stream.get(round));
        }
      }
    }
    out.printf("sample lines (%d of %d):%n", picked.size(), entries.size());
    for (JsonNode e : picked) {
      String line = e.path("line").asText();
      out.println(
          "  "
              + e.path("labels").path("event_type").asText("?")
              + "  "
              + (line.length() > 200 ? line.substring(0, 200) + "..." : line));
    }
  }

  private String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET " + url + " answered " + response.statusCode());
    }
    return response.body();
  }
}
