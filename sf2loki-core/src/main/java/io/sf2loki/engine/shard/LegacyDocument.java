package io.sf2loki.engine.shard;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.StoreEnvironment;
import java.util.Map;
import java.util.Objects;

/**
 * The configured, unsuffixed checkpoint document a multi-org shard inherits its first positions
 * from: a Python multi-org state file, or the document of the single-org deployment it replaces.
 * Read only, fresh at each read, through a store opened for that read alone and closed after it:
 * never locked (the store is opened as a coordinated replica opens it), never written.
 */
public final class LegacyDocument {

  private final CheckpointStoreProvider.Factory factory;
  private final StoreEnvironment environment;

  /**
   * @param environment the environment the reading store is created with; its {@code
   *     singleInstance} is ignored (a read takes no lock)
   */
  public LegacyDocument(CheckpointStoreProvider.Factory factory, StoreEnvironment environment) {
    this.factory = Objects.requireNonNull(factory, "factory");
    this.environment =
        new StoreEnvironment(
            false, environment.clock(), environment.metrics(), environment.threads());
  }

  /** Where the document lives. */
  public String location() {
    return factory.location();
  }

  /**
   * The whole document; empty when there is none. Errors as for {@link CheckpointStore#loadAll()}
   * (a corrupt legacy document is refused, naming it).
   */
  public Map<String, String> read() {
    try (CheckpointStore store = factory.create(environment)) {
      return store.loadAll();
    }
  }
}
