package io.sf2loki.cli.migrate;

import static io.sf2loki.cli.migrate.PythonType.BOOL;
import static io.sf2loki.cli.migrate.PythonType.DURATION;
import static io.sf2loki.cli.migrate.PythonType.STRING;

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
   * Converts YAML text: a single-org file into a single-org configuration; a multi-org file into
   * one with {@code orgs = [...]}, each org under its Python name; with {@code org}, only that org
   * of a multi-org file, as a single-org configuration.
   *
   * @param source the file name, for messages
   * @param yaml the Python configuration
   * @param org for a multi-org file, the {@code orgs[].name} to convert alone
   * @throws PythonConfigException when the Python sf2loki would not load the file
   * @throws UnknownOrgException when {@code org} names no org of the file
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
    List<Conversion> orgs = convertOrgs(source, root, org);
    root.section("sink").ifPresent(sink -> SinkSection.convert(sink, orgs));
    root.section("state").ifPresent(PythonConfigMigrator::state);
    root.section("coordinate").ifPresent(PythonConfigMigrator::coordinate);
    ServiceSection.convert(root.section("service"), conversion);
    root.finish();
    if (!orgs.isEmpty()) {
      Orgs.sharedNotes(
          conversion, orgs.stream().map(o -> String.valueOf(o.value("name").orElse("?"))).toList());
    }
    if (!conversion.isSet("sink.loki.url")) {
      conversion.problem("sink.loki.url", "required");
    }
    if (!conversion.problems().isEmpty()) {
      throw new PythonConfigException(source, conversion.problems());
    }
    return new Migration(
        header(source, conversion) + HoconText.render(conversion.tree()), conversion.notes());
  }

  /**
   * Converts the salesforce and sources sections: the top-level ones, every org's, or the chosen
   * org's; the conversions of our {@code orgs} elements (empty for a single-org result).
   */
  private static List<Conversion> convertOrgs(
      String source, PythonSection root, Optional<String> org) {
    Conversion conversion = root.conversion();
    boolean single = root.has("salesforce");
    List<Orgs.PythonOrg> orgs = Orgs.read(root);
    if (single == !orgs.isEmpty()) {
      root.raw("salesforce"); // reported here, not again as an unknown key
      conversion.problem("salesforce", "exactly one of salesforce and orgs must be set");
      return List.of();
    }
    if (org.isEmpty()) {
      if (single) {
        convertOrg(root);
        return List.of();
      }
      return Orgs.convertAll(root, orgs);
    }
    String name = org.get();
    Orgs.PythonOrg selected =
        orgs.stream()
            .filter(o -> o.name().equals(org))
            .findFirst()
            .orElseThrow(() -> new UnknownOrgException(source, name, Orgs.names(orgs)));
    PythonSection section = selected.section(conversion);
    section.raw("name");
    convertOrg(section);
    section.finish();
    root.drop("sources", "the org's sources were converted; top-level sources must stay default");
    conversion.note(
        "orgs",
        Kind.DIFFERENT_SEMANTICS,
        "org '"
            + name
            + "' converted as a single-org file: no org label, and its checkpoints (keys prefixed"
            + " org="
            + name
            + ": in the Python state file) start again from lookback");
    return List.of();
  }

  /** One org's salesforce and sources sections, into the section's conversion. */
  static void convertOrg(PythonSection org) {
    Optional<PythonSection> salesforce = org.section("salesforce");
    if (salesforce.isPresent()) {
      salesforce(salesforce.get());
    } else {
      org.conversion().problem(org.key("salesforce"), "required");
    }
    Optional<PythonSection> sources = org.section("sources");
    if (sources.isPresent()) {
      SourceSections.convert(sources.get());
    } else {
      SourceSections.convert(
          new PythonSection(org.key("sources"), new LinkedHashMap<>(), org.conversion()));
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
        .ifPresent(
            v -> {
              if (!v.isBlank()) {
                section.set(key, target, v);
              } else {
                Conversion conversion = section.conversion();
                conversion.mappedTo(
                    section.key(key),
                    List.of(conversion.javaKey(target) + " (left unset: derived here too)"));
              }
            });
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
            .filter(MigrationNote::needsReview)
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
