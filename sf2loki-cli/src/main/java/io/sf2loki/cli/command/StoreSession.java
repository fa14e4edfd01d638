package io.sf2loki.cli.command;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.engine.shard.LegacyDocument;
import io.sf2loki.engine.shard.OrgKeyView;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.StoreEnvironment;
import java.time.Clock;

/**
 * Opens the configured store for one {@code state} command after the running-daemon guard passed.
 * Under {@code noop} without {@code --force} the store guards itself with its single-instance lock,
 * so a daemon holding it makes the command fail; {@code --force} opens it as a coordinated replica
 * would (no lifetime lock).
 */
final class StoreSession {

  private StoreSession() {}

  static CheckpointStore open(Sf2LokiConfig config, boolean force, Clock clock) {
    return open(Shard.single(config), force, clock);
  }

  /**
   * Opens {@code shard}'s store: an org's is its own document seen through the org's {@link
   * OrgKeyView} (keys without their {@code org=<name>:} prefix, the legacy document read while the
   * org's own was never written), exactly as the daemon's shard sees it.
   */
  static CheckpointStore open(Shard shard, boolean force, Clock clock) {
    Sf2LokiConfig config = shard.config();
    boolean singleInstance = !config.isCoordinated() && !force;
    StoreEnvironment environment =
        new StoreEnvironment(singleInstance, clock, new SimpleMeterRegistry());
    CheckpointStore document = config.store().create(environment);
    return shard
        .org()
        .<CheckpointStore>map(
            org ->
                OrgKeyView.of(document, org, new LegacyDocument(org.legacyDocument(), environment)))
        .orElse(document);
  }
}
