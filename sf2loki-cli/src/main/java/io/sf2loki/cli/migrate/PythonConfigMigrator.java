package io.sf2loki.cli.migrate;

import static io.sf2loki.cli.migrate.PythonType.BOOL;
import static io.sf2loki.cli.migrate.PythonType.DURATION;
import static io.sf2loki.cli.migrate.PythonType.INT;
import static io.sf2loki.cli.migrate.PythonType.NUMBER;
import static io.sf2loki.cli.migrate.PythonType.SCALAR_MAP;
import static io.sf2loki.cli.migrate.PythonType.STRING;
import static io.sf2loki.cli.migrate.PythonType.STRINGS;

import io.sf2loki.cli.migrate.MigrationNote.Kind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Converts a Python sf2loki YAML configuration, after the key mapping of the Python configuration
 * reference. Python defaults that differ from ours are written out, so the converted file behaves
 * like the original; keys with no equivalent are dropped and reported, never silently.
 */
public final class PythonConfigMigrator {

  private PythonConfigMigrator() {}

  /**
   * Converts YAML text.
   *
   * @param source the file name, for messages
   * @param yaml the Python configuration
   * @param org for a multi-org file, the {@code orgs[].name} to convert (one org per file here)
   * @throws PythonConfigException when the Python sf2loki would not load the file
   */
  public static Migration migrate(String source, String yaml, Optional<String> org) {
    Object document;
    try {
      // SnakeYAML is YAML 1.1 like PyYAML's safe_load: yes/no/on/off are booleans there too.
      document = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
    } catch (YAMLException e) {
      throw new PythonConfigException(source, List.of("not YAML: " + firstLine(e.getMessage())));
    }
    Map<?, ?> top = document == null ? Map.of() : null;
    if (document instanceof Map<?, ?> map) {
      top = map;
    }
    if (top == null) {
      throw new PythonConfigException(source, List.of("the top level must be a mapping"));
    }
    Conversion conversion = new Conversion();
    PythonSection root = new PythonSection("", new LinkedHashMap<>(top), conversion);
    selectOrg(root, org).ifPresent(selected -> convertOrg(root, selected));
    root.section("sink").ifPresent(PythonConfigMigrator::sink);
    root.section("state").ifPresent(PythonConfigMigrator::state);
    root.section("coordinate").ifPresent(PythonConfigMigrator::coordinate);
    ServiceSection.convert(root.section("service"), conversion);
    root.finish();
    if (!conversion.isSet("sink.loki.url")) {
      conversion.problem("sink.loki.url", "required");
    }
    if (!conversion.problems().isEmpty()) {
      throw new PythonConfigException(source, conversion.problems());
    }
    return new Migration(
        header(source, conversion) + HoconText.render(conversion.tree()), conversion.notes());
  }

  /** The salesforce and sources sections to convert: top level, or the chosen org's. */
  private static Optional<PythonSection> selectOrg(PythonSection root, Optional<String> org) {
    Conversion conversion = root.conversion();
    boolean single = root.has("salesforce");
    List<PythonSection> orgs = root.sections("orgs");
    if (single == !orgs.isEmpty()) {
      conversion.problem("salesforce", "exactly one of salesforce and orgs must be set");
      return Optional.empty();
    }
    if (single) {
      return Optional.of(root);
    }
    Map<String, PythonSection> byName = new LinkedHashMap<>();
    orgs.forEach(o -> o.string("name").ifPresent(name -> byName.put(name, o)));
    String names = String.join(", ", byName.keySet());
    if (org.isEmpty() && byName.size() > 1) {
      conversion.problem(
          "orgs", "several orgs (" + names + "): convert one per file with --org NAME");
      return Optional.empty();
    }
    String name = org.orElse(byName.keySet().stream().findFirst().orElse(""));
    PythonSection selected = byName.get(name);
    if (selected == null) {
      conversion.problem("orgs", "no org named '" + name + "' (there are: " + names + ")");
      return Optional.empty();
    }
    conversion.note(
        "orgs",
        Kind.DIFFERENT_SEMANTICS,
        "org '"
            + name
            + "' converted as a single-org file: no org label, and its checkpoints (keys prefixed"
            + " org="
            + name
            + ": in the Python state file) start again from lookback");
    return Optional.of(selected);
  }

  private static void convertOrg(PythonSection root, PythonSection org) {
    org.section("salesforce").ifPresent(PythonConfigMigrator::salesforce);
    Optional<PythonSection> sources = org.section("sources");
    if (sources.isPresent()) {
      SourceSections.convert(sources.get());
    } else {
      SourceSections.convert(
          new PythonSection(org.key("sources"), new LinkedHashMap<>(), org.conversion()));
    }
    if (org != root) {
      org.string("name");
      org.finish();
      root.drop("sources", "the org's sources were converted; top-level sources must stay default");
    }
  }

  private static void salesforce(PythonSection sf) {
    for (String key :
        List.of(
            "login_url",
            "environment",
            "auth_mode",
            "client_id",
            "username",
            "api_version",
            "org_id")) {
      sf.copy(key, STRING, "salesforce." + key);
    }
    Secrets.copy(sf, "client_secret", "salesforce.client_secret");
    Secrets.copy(sf, "private_key", "salesforce.private_key");
    sf.copy("token_ttl", DURATION, "salesforce.token_ttl");
    sf.section("limits").ifPresent(PythonConfigMigrator::limits);
    sf.finish();
  }

  private static void limits(PythonSection limits) {
    limits.copy("enabled", BOOL, "salesforce.limits.enabled");
    limits.copy("poll_interval", DURATION, "salesforce.limits.poll_interval");
    limits.finish();
  }

  private static void sink(PythonSection sink) {
    sink.section("loki").ifPresent(PythonConfigMigrator::loki);
    sink.finish();
  }

  private static void loki(PythonSection loki) {
    Conversion conversion = loki.conversion();
    loki.copy("url", STRING, "sink.loki.url");
    loki.copy("tenant_id", STRING, "sink.loki.tenant_id");
    Secrets.copy(loki, "auth_token", "sink.loki.auth_token");
    String encoding = loki.string("encoding").orElse("protobuf");
    conversion.set("sink.loki.encoding", encoding);
    String compression = loki.string("compression").orElse("snappy");
    if (encoding.equals("json")) {
      // Python's json with snappy (its default) or none sends plain JSON: our "none".
      conversion.set("sink.loki.compression", compression.equals("gzip") ? "gzip" : "none");
      if (!compression.equals("gzip")) {
        conversion.note(
            loki.key("compression"),
            Kind.DIFFERENT_SEMANTICS,
            "json with " + compression + " is sent uncompressed by Python: compression = none");
      }
    }
    loki.copy("labels", SCALAR_MAP, "sink.loki.labels");
    loki.convert("structured_metadata_fields", STRINGS)
        .ifPresent(
            fields -> {
              SourceSections.SOURCES.forEach(
                  s -> conversion.set("sources." + s + ".structured_metadata_fields", fields));
              conversion.note(
                  loki.key("structured_metadata_fields"),
                  Kind.DIFFERENT_SEMANTICS,
                  "one list per source here: copied to every source's structured_metadata_fields");
            });
    loki.section("batch").ifPresent(PythonConfigMigrator::batch);
    loki.section("egress").ifPresent(PythonConfigMigrator::egress);
    loki.finish();
  }

  private static void egress(PythonSection egress) {
    Conversion conversion = egress.conversion();
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
    rateCap(egress, "max_lines_per_second", "max_lines_per_second");
    rateCap(egress, "max_bytes_per_second", "max_bytes_per_second");
    egress.finish();
  }

  /** One Python cap shared by both lanes becomes each lane's, rounded down to a whole number. */
  private static void rateCap(PythonSection egress, String name, String target) {
    egress
        .convert(name, NUMBER)
        .map(v -> ((Number) v).doubleValue())
        .filter(v -> v > 0)
        .ifPresent(
            rate -> {
              long whole = Math.max(1, (long) Math.floor(rate));
              for (String lane : List.of("streaming", "bulk")) {
                egress.conversion().set("sink.loki.egress." + lane + "." + target, whole);
              }
              egress
                  .conversion()
                  .note(
                      egress.key(name),
                      Kind.DIFFERENT_SEMANTICS,
                      "one cap per lane here (streaming and bulk each get "
                          + whole
                          + "; together up to twice the Python cap)");
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

  private static void state(PythonSection state) {
    state.copy("store", STRING, "state.store");
    state.section("file").ifPresent(file -> strings(file, "state.file", "path"));
    state
        .section("s3")
        .ifPresent(s3 -> strings(s3, "state.s3", "bucket", "key", "region", "endpoint_url"));
    state
        .section("gcs")
        .ifPresent(gcs -> strings(gcs, "state.gcs", "bucket", "object_name", "service_file"));
    state.finish();
  }

  private static void coordinate(PythonSection coordinate) {
    coordinate.copy("type", STRING, "coordinate.type");
    coordinate.section("file_lease").ifPresent(PythonConfigMigrator::fileLease);
    coordinate.section("k8s_lease").ifPresent(PythonConfigMigrator::k8sLease);
    coordinate.finish();
  }

  private static void fileLease(PythonSection lease) {
    lease.copy("path", STRING, "coordinate.file_lease.path");
    lease.copy("ttl", DURATION, "coordinate.file_lease.ttl");
    lease.copy("renew_interval", DURATION, "coordinate.file_lease.renew_interval");
    nonBlank(lease, "holder_id", "coordinate.file_lease.holder_id");
    lease.finish();
  }

  private static void k8sLease(PythonSection lease) {
    lease.copy("namespace", STRING, "coordinate.k8s_lease.namespace");
    lease.copy("name", STRING, "coordinate.k8s_lease.name");
    nonBlank(lease, "identity", "coordinate.k8s_lease.identity");
    lease.copy("lease_duration", DURATION, "coordinate.k8s_lease.lease_duration");
    lease.copy("renew_interval", DURATION, "coordinate.k8s_lease.renew_interval");
    lease.copy("kubeconfig", STRING, "coordinate.k8s_lease.kubeconfig");
    lease.finish();
  }

  /** Python's "" means "derive it" (hostname-pid, $HOSTNAME), which is our unset. */
  private static void nonBlank(PythonSection section, String key, String target) {
    section
        .string(key)
        .filter(v -> !v.isBlank())
        .ifPresent(v -> section.conversion().set(target, v));
  }

  private static void strings(PythonSection section, String prefix, String... keys) {
    for (String key : keys) {
      section.copy(key, STRING, prefix + "." + key);
    }
    section.finish();
  }

  private static String header(String source, Conversion conversion) {
    String notes =
        conversion.notes().stream()
            .map(note -> "#   " + note.line() + "\n")
            .collect(Collectors.joining());
    return "# Converted from "
        + source
        + " by sf2loki-cli config migrate; check it with sf2loki-cli config check.\n"
        + (notes.isEmpty() ? "" : "# Keys to review:\n" + notes)
        + "\n";
  }

  private static String firstLine(String message) {
    return message == null ? "unreadable" : message.lines().findFirst().orElse(message);
  }
}
