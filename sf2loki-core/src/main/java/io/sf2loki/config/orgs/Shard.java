package io.sf2loki.config.orgs;

import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.spi.CheckpointStoreProvider;
import java.util.Objects;
import java.util.Optional;

/**
 * One shard of a deployment: what one engine runs. A single-org configuration is one shard without
 * an org; with {@code orgs}, each org is a shard whose configuration has the org's Salesforce
 * connection, sources, Loki tenant and labels, and a checkpoint document, lease and dead-letter
 * file of its own.
 *
 * @param org the org this shard runs; empty for a single-org configuration
 * @param config the shard's whole effective configuration
 */
public record Shard(Optional<Org> org, Sf2LokiConfig config) {

  public Shard {
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(config, "config");
  }

  /** The shard of a single-org configuration. */
  public static Shard single(Sf2LokiConfig config) {
    return new Shard(Optional.empty(), config);
  }

  /** {@code org <name>}, or {@code ""} for a single-org shard: how messages name the shard. */
  public String describe() {
    return org.map(o -> "org " + o.name()).orElse("");
  }

  /**
   * The org of a shard.
   *
   * @param name {@code orgs[].name}: the {@code org} stream label, the checkpoint key prefix {@code
   *     org=<name>:} and the suffix of the shard's document, lease and dead-letter file
   * @param first true for the first configured org: it also reads the legacy document's unprefixed
   *     keys, the single-org to multi-org migration path
   * @param legacyDocument the configured, unsuffixed checkpoint document (a Python multi-org state
   *     file, or the single-org deployment's document), which a shard whose own document was never
   *     written reads once, read-only
   */
  public record Org(String name, boolean first, CheckpointStoreProvider.Factory legacyDocument) {

    public Org {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(legacyDocument, "legacyDocument");
    }

    /** {@code org=<name>:}, the prefix of this org's keys in a checkpoint document. */
    public String keyPrefix() {
      return "org=" + name + ":";
    }
  }
}
