package io.sf2loki.config.orgs;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValueFactory;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.DocumentNames;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Derives one org's whole configuration from the top-level one, key by key: the org's {@code
 * salesforce} over the top-level section (except {@code org_id}, which names one org), its {@code
 * sources} over the top-level ones, its {@code sink.loki.tenant_id} and {@code labels} over the
 * top-level ones plus {@code org = <name>}; and, named after the org with {@code -<name>}, its
 * checkpoint document ({@code state.json → state-prod.json}, the S3 key or GCS object likewise),
 * its lease ({@code leader.lease → leader-prod.lease}; Kubernetes {@code sf2loki-leader-prod}) and
 * its dead-letter file. Everything else is shared.
 */
final class OrgDerivation {

  /** An RFC 1123 subdomain, what a Kubernetes Lease may be called. */
  private static final Pattern K8S_NAME =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private static final String LEASE_FILE = "coordinate.file_lease.path";
  private static final String LEASE_NAME = "coordinate.k8s_lease.name";
  private static final String DEAD_LETTERS = "sink.loki.dead_letter_file";

  private final Config base;
  private final Optional<String> documentKey;

  private OrgDerivation(Config base, Optional<String> documentKey) {
    this.base = base;
    this.documentKey = documentKey;
  }

  /**
   * The derivation over {@code base}, the resolved top-level configuration; a store or coordinator
   * type it cannot name per org is reported.
   *
   * @param storeTypes the store types the providers know (an unknown one is reported by binding)
   * @param coordinatorTypes likewise for coordinators
   */
  static OrgDerivation of(
      Config base,
      List<String> storeTypes,
      List<String> coordinatorTypes,
      List<OrgEntry> entries,
      List<ConfigProblem> problems) {
    String store = string(base, "state.store");
    Optional<String> documentKey = DocumentNames.documentKey(store);
    if (documentKey.isEmpty() && storeTypes.contains(store)) {
      problems.add(
          new ConfigProblem(
              "state.store",
              "with orgs each org keeps its checkpoints in a document of its own, which sf2loki"
                  + " can name for the file, s3 and gcs stores only (state.store is "
                  + store
                  + ")"));
    }
    String coordinator = string(base, "coordinate.type");
    if (!List.of("noop", "file_lease", "k8s_lease").contains(coordinator)
        && coordinatorTypes.contains(coordinator)) {
      problems.add(
          new ConfigProblem(
              "coordinate.type",
              "with orgs each org has a lease of its own, which sf2loki can name for the"
                  + " file_lease and k8s_lease coordinators only (coordinate.type is "
                  + coordinator
                  + ")"));
    }
    if (coordinator.equals("k8s_lease")) {
      for (OrgEntry entry : entries) {
        String lease = string(base, LEASE_NAME) + "-" + entry.name();
        if (lease.length() > 253 || !K8S_NAME.matcher(lease).matches()) {
          problems.add(
              new ConfigProblem(
                  entry.path() + ".name",
                  entry.path()
                      + ".name ("
                      + entry.name()
                      + ") makes the org's Kubernetes Lease name "
                      + lease
                      + ", which Kubernetes refuses: under k8s_lease use lower-case letters,"
                      + " digits and '-' (not at the end)"));
        }
      }
    }
    return new OrgDerivation(base, documentKey);
  }

  /** The whole configuration of {@code entry}'s shard. */
  Config derive(OrgEntry entry) {
    String suffix = "-" + entry.name();
    Config c = base.withValue("orgs", ConfigValueFactory.fromIterable(List.of()));
    ConfigObject salesforce = base.getObject("salesforce").withoutKey("org_id");
    c =
        c.withValue(
            "salesforce",
            entry.section("salesforce").map(o -> o.withFallback(salesforce)).orElse(salesforce));
    Optional<ConfigObject> sources = entry.section("sources");
    if (sources.isPresent()) {
      c = c.withValue("sources", sources.get().withFallback(base.getObject("sources")));
    }
    Optional<com.typesafe.config.ConfigValue> tenant = entry.value("sink.loki.tenant_id");
    if (tenant.isPresent()) {
      c = c.withValue("sink.loki.tenant_id", tenant.get());
    }
    ConfigObject labels = base.getObject("sink.loki.labels");
    if (entry.value("sink.loki.labels").orElse(null) instanceof ConfigObject own) {
      labels = own.withFallback(labels);
    }
    c =
        c.withValue(
            "sink.loki.labels",
            labels.withValue("org", ConfigValueFactory.fromAnyRef(entry.name())));
    if (documentKey.isPresent()) {
      c = suffix(c, documentKey.get(), suffix);
    }
    c = suffix(c, LEASE_FILE, suffix);
    if (!string(c, LEASE_NAME).isBlank()) {
      c = c.withValue(LEASE_NAME, ConfigValueFactory.fromAnyRef(string(c, LEASE_NAME) + suffix));
    }
    c = suffix(c, DEAD_LETTERS, suffix);
    return c;
  }

  private static Config suffix(Config c, String key, String suffix) {
    String name = string(c, key);
    return name.isBlank()
        ? c
        : c.withValue(key, ConfigValueFactory.fromAnyRef(DocumentNames.suffixed(name, suffix)));
  }

  private static String string(Config c, String path) {
    try {
      return c.hasPath(path) ? c.getString(path) : "";
    } catch (com.typesafe.config.ConfigException e) {
      return ""; // a wrong type is reported by binding
    }
  }
}
