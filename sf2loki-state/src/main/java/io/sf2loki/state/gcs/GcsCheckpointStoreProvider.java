package io.sf2loki.state.gcs;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.StoreEnvironment;

/** Provides the {@code gcs} store from {@code state.gcs}. */
public final class GcsCheckpointStoreProvider implements CheckpointStoreProvider {

  /** For {@link java.util.ServiceLoader}; performs no I/O. */
  public GcsCheckpointStoreProvider() {}

  @Override
  public String type() {
    return "gcs";
  }

  @Override
  public Factory configure(ConfigSection section) {
    GcsStoreConfig config = GcsStoreConfig.bind(section);
    return new Factory() {
      @Override
      public String location() {
        return config.location();
      }

      @Override
      public CheckpointStore create(StoreEnvironment environment) {
        return GcsCheckpointStore.create(config, environment);
      }
    };
  }
}
