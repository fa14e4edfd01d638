package io.sf2loki.spi;

/**
 * Creates a {@link CheckpointStore} selected by {@code state.store}; its section is {@code
 * state.<type>}. Register in {@code META-INF/services/io.sf2loki.spi.CheckpointStoreProvider}.
 */
public interface CheckpointStoreProvider
    extends ComponentProvider<CheckpointStoreProvider.Factory> {

  /** A validated store configuration, ready to create stores. */
  interface Factory {

    /** Where the document lives, for messages, without touching it. */
    String location();

    /**
     * The local file the document lives in, when it lives in one (the {@code file} store), for the
     * launchers' topology warnings; empty for object stores.
     */
    default java.util.Optional<java.nio.file.Path> documentFile() {
      return java.util.Optional.empty();
    }

    /**
     * Creates the store. Construction performs no I/O; locks and clients are taken lazily on the
     * first operation (so {@code --check} never takes a lock).
     */
    CheckpointStore create(StoreEnvironment environment);
  }
}
