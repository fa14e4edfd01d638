package io.sf2loki.state.file;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import java.nio.file.Path;
import java.util.Optional;

/** Provides the {@code file} store from {@code state.file}. */
public final class FileCheckpointStoreProvider implements CheckpointStoreProvider {

  /** For {@link java.util.ServiceLoader}; performs no I/O. */
  public FileCheckpointStoreProvider() {}

  @Override
  public String type() {
    return "file";
  }

  @Override
  public Factory configure(ConfigSection section) {
    FileStoreConfig config = FileStoreConfig.bind(section);
    return new Factory() {
      @Override
      public String location() {
        return config.path().toString();
      }

      @Override
      public Optional<Path> documentFile() {
        return Optional.of(config.path());
      }

      @Override
      public CheckpointStore create(StoreEnvironment environment) {
        return new FileCheckpointStore(config, environment, Ticker.SYSTEM);
      }
    };
  }
}
