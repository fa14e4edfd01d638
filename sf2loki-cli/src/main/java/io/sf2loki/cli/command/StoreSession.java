package io.sf2loki.cli.command;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.Sf2LokiConfig;
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
    boolean singleInstance = !config.isCoordinated() && !force;
    return config
        .store()
        .create(new StoreEnvironment(singleInstance, clock, new SimpleMeterRegistry()));
  }
}
