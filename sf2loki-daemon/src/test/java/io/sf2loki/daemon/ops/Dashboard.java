package io.sf2loki.daemon.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A Grafana dashboard of deploy/grafana as Grafana imports it: its panels (rows' nested ones
 * included), their queries, its variables.
 *
 * @param file the JSON file
 * @param json the dashboard
 */
record Dashboard(Path file, JsonNode json) {

  /** The datasource inputs Grafana asks for at import, by type. */
  static final String PROMETHEUS = "${DS_PROMETHEUS}";

  static final String LOKI = "${DS_LOKI}";

  private static final Pattern VARIABLE = Pattern.compile("\\$\\{?[A-Za-z_][A-Za-z0-9_]*\\}?");

  /**
   * One query of a panel.
   *
   * @param id dashboard uid, panel title and refId, for messages
   * @param datasource the query's datasource uid
   * @param expr the expression as written, with Grafana's variables
   */
  record Query(String id, String datasource, String expr) {

    /**
     * The expression as Grafana sends it: its interval variables as durations, every template
     * variable (all of them regex matchers of the "All" kind here) as {@code .*}.
     */
    String expanded() {
      String e =
          expr.replace("$__rate_interval", "5m")
              .replace("$__interval", "1m")
              .replace("$__range", "1h")
              .replace("$__auto", "1m");
      return VARIABLE.matcher(e).replaceAll(".*");
    }
  }

  /** Reads a dashboard file. */
  static Dashboard read(Path file) throws IOException {
    return new Dashboard(file, new ObjectMapper().readTree(file.toFile()));
  }

  /** The dashboard's uid. */
  String uid() {
    return json.path("uid").asText();
  }

  /** Every panel but the rows, nested ones included. */
  List<JsonNode> panels() {
    List<JsonNode> out = new ArrayList<>();
    collect(json.path("panels"), out);
    return out;
  }

  private static void collect(JsonNode panels, List<JsonNode> out) {
    for (JsonNode p : panels) {
      if (p.path("type").asText().equals("row")) {
        collect(p.path("panels"), out);
      } else {
        out.add(p);
      }
    }
  }

  /** Every panel query, with its datasource (the panel's when the query names none). */
  List<Query> queries() {
    List<Query> out = new ArrayList<>();
    for (JsonNode p : panels()) {
      for (JsonNode t : p.path("targets")) {
        JsonNode ds = t.has("datasource") ? t.path("datasource") : p.path("datasource");
        out.add(
            new Query(
                uid() + " / " + p.path("title").asText() + " / " + t.path("refId").asText(),
                ds.path("uid").asText(),
                t.path("expr").asText()));
      }
    }
    return out;
  }

  /** The template variable {@code name}, or a missing node. */
  JsonNode variable(String name) {
    for (JsonNode v : json.path("templating").path("list")) {
      if (v.path("name").asText().equals(name)) {
        return v;
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  /** The queries of the template variables, as queries of their datasource. */
  List<Query> variableQueries() {
    List<Query> out = new ArrayList<>();
    for (JsonNode v : json.path("templating").path("list")) {
      if (v.path("type").asText().equals("query")) {
        out.add(
            new Query(
                uid() + " / $" + v.path("name").asText(),
                v.path("datasource").path("uid").asText(),
                v.path("definition").asText()));
      }
    }
    return out;
  }
}
