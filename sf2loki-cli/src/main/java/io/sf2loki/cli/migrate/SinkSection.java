package io.sf2loki.cli.migrate;

import static io.sf2loki.cli.migrate.PythonType.DURATION;
import static io.sf2loki.cli.migrate.PythonType.INT;
import static io.sf2loki.cli.migrate.PythonType.NUMBER;
import static io.sf2loki.cli.migrate.PythonType.SCALAR_MAP;
import static io.sf2loki.cli.migrate.PythonType.STRING;
import static io.sf2loki.cli.migrate.PythonType.STRINGS;

import io.sf2loki.cli.migrate.MigrationNote.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code sink.loki.*}, which the Python original shares across all its orgs. With orgs, what we
 * keep per org instead is written into each org: a shared {@code sf_org_id} label (ours is refused
 * at the top level) and a note that each org has its own egress budget and caps.
 */
final class SinkSection {

  private final Conversion conversion;
  private final List<Conversion> orgs;

  /**
   * @param orgs the conversions of the multi-org file's orgs; empty for a single-org result
   */
  private SinkSection(Conversion conversion, List<Conversion> orgs) {
    this.conversion = conversion;
    this.orgs = orgs;
  }

  static void convert(PythonSection sink, List<Conversion> orgs) {
    SinkSection section = new SinkSection(sink.conversion(), orgs);
    sink.section("loki").ifPresent(section::loki);
    sink.finish();
  }

  private void loki(PythonSection loki) {
    loki.copy("url", STRING, "sink.loki.url");
    loki.copy("tenant_id", STRING, "sink.loki.tenant_id");
    Secrets.copy(loki, "auth_token", "sink.loki.auth_token");
    boolean encodingSet = loki.has("encoding");
    String encoding = loki.string("encoding").orElse("protobuf");
    conversion.set("sink.loki.encoding", encoding);
    if (encodingSet) {
      conversion.mapped(loki.key("encoding"), "sink.loki.encoding");
    }
    compression(loki, encoding);
    loki.convert("labels", SCALAR_MAP).ifPresent(labels -> labels(loki, (Map<?, ?>) labels));
    loki.convert("structured_metadata_fields", STRINGS)
        .ifPresent(
            fields -> {
              List<String> targets = new ArrayList<>();
              for (String source : SourceSections.SOURCES) {
                String target = "sources." + source + ".structured_metadata_fields";
                conversion.set(target, fields);
                targets.add(target);
              }
              conversion.mapped(
                  loki.key("structured_metadata_fields"), targets.toArray(String[]::new));
              conversion.note(
                  loki.key("structured_metadata_fields"),
                  Kind.DIFFERENT_SEMANTICS,
                  "one list per source here: copied to every source's structured_metadata_fields"
                      + (orgs.isEmpty() ? "" : " at the top level, which every org inherits"));
            });
    loki.section("batch").ifPresent(SinkSection::batch);
    loki.section("egress").ifPresent(this::egress);
    loki.finish();
  }

  private void compression(PythonSection loki, String encoding) {
    boolean set = loki.has("compression");
    String compression = loki.string("compression").orElse("snappy");
    if (!encoding.equals("json")) {
      if (set) {
        loki.conversion()
            .note(
                loki.key("compression"),
                Kind.NO_EQUIVALENT,
                "Python ignores it with protobuf (always snappy), and so do we");
      }
      return;
    }
    // Python's json with snappy (its default) or none sends plain JSON: our "none".
    conversion.set("sink.loki.compression", compression.equals("gzip") ? "gzip" : "none");
    if (set) {
      conversion.mapped(loki.key("compression"), "sink.loki.compression");
    }
    if (!compression.equals("gzip")) {
      conversion.note(
          loki.key("compression"),
          Kind.DIFFERENT_SEMANTICS,
          "json with " + compression + " is sent uncompressed by Python: compression = none");
    }
  }

  /**
   * Static labels: shared as they are by a single org; with orgs, {@code sf_org_id} is written into
   * each org (the same value on every org's streams, as in Python) and {@code org}, which is each
   * org's name here, is dropped.
   */
  private void labels(PythonSection loki, Map<?, ?> labels) {
    String key = loki.key("labels");
    if (orgs.isEmpty()) {
      conversion.set("sink.loki.labels", labels);
      conversion.mapped(key, "sink.loki.labels");
      return;
    }
    for (Map.Entry<?, ?> label : labels.entrySet()) {
      String name = String.valueOf(label.getKey());
      String labelKey = key + "." + name;
      switch (name) {
        case "org" ->
            conversion.note(
                labelKey,
                Kind.NO_EQUIVALENT,
                "with orgs every org's streams carry org = its orgs[].name here");
        case "sf_org_id" -> {
          List<String> targets = new ArrayList<>();
          for (Conversion org : orgs) {
            org.set("sink.loki.labels.sf_org_id", label.getValue());
            targets.add(org.javaKey("sink.loki.labels.sf_org_id"));
          }
          conversion.mappedTo(labelKey, targets);
        }
        default -> {
          conversion.set("sink.loki.labels." + name, label.getValue());
          conversion.mapped(labelKey, "sink.loki.labels." + name);
        }
      }
    }
  }

  private void egress(PythonSection egress) {
    egress.copy("daily_byte_budget", INT, "sink.loki.egress.daily_byte_budget");
    egress.copy("budget_action", STRING, "sink.loki.egress.budget_action");
    if (conversion.isSet("sink.loki.egress.daily_byte_budget")) {
      // The Python original pauses both lanes; ours exempts streaming unless told otherwise.
      conversion.set("sink.loki.egress.budget_exempt_lanes", List.of());
      conversion.note(
          egress.key("daily_byte_budget"),
          Kind.DEFAULT_WRITTEN,
          "budget_exempt_lanes = [] keeps the Python behaviour (both lanes pause); the default here"
              + " is [streaming], which lets Pub/Sub flow when the budget is spent");
    }
    rateCap(egress, "max_lines_per_second");
    rateCap(egress, "max_bytes_per_second");
    if (!orgs.isEmpty()) {
      conversion.note(
          egress.path(),
          Kind.DIFFERENT_SEMANTICS,
          "one budget and one set of caps for all orgs in Python; here each of the "
              + orgs.size()
              + " orgs has its own (its budget counted in its own document), so together they may"
              + " push up to "
              + orgs.size()
              + " times these");
    }
    egress.finish();
  }

  /** One Python cap shared by both lanes becomes each lane's, rounded down to a whole number. */
  private void rateCap(PythonSection egress, String name) {
    egress
        .convert(name, NUMBER)
        .map(v -> ((Number) v).doubleValue())
        .ifPresent(
            rate -> {
              long whole = rate > 0 ? Math.max(1, (long) Math.floor(rate)) : 0;
              List<String> targets = new ArrayList<>();
              for (String lane : List.of("streaming", "bulk")) {
                String target = "sink.loki.egress." + lane + "." + name;
                conversion.set(target, whole);
                targets.add(target);
              }
              conversion.mapped(egress.key(name), targets.toArray(String[]::new));
              if (rate > 0) {
                conversion.note(
                    egress.key(name),
                    Kind.DIFFERENT_SEMANTICS,
                    "one cap per lane here (streaming and bulk each get "
                        + whole
                        + "; together up to twice the Python cap)");
              }
            });
  }

  private static void batch(PythonSection batch) {
    for (String key : List.of("max_entries", "max_bytes", "queue_maxsize")) {
      batch.copy(key, INT, "sink.loki.batch." + key);
    }
    batch.copy("flush_interval", DURATION, "sink.loki.batch.flush_interval");
    batch.copy("max_line_bytes", INT, "sink.loki.max_line_bytes");
    if (batch.has("queue_max_bytes")) {
      batch.copy("queue_max_bytes", INT, "sink.loki.batch.queue_max_bytes");
      batch
          .conversion()
          .note(
              batch.key("queue_max_bytes"),
              Kind.DIFFERENT_SEMANTICS,
              "an entry is costed 448 bytes more here, so the same bound holds fewer entries");
    }
    batch.finish();
  }
}
