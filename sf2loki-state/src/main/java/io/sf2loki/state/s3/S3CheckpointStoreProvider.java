package io.sf2loki.state.s3;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.StoreEnvironment;

/** Provides the {@code s3} store from {@code state.s3}. */
public final class S3CheckpointStoreProvider implements CheckpointStoreProvider {

  /** For {@link java.util.ServiceLoader}; performs no I/O. */
  public S3CheckpointStoreProvider() {}

  @Override
  public String type() {
    return "s3";
  }

  @Override
  public Factory configure(ConfigSection section) {
    S3StoreConfig config = S3StoreConfig.bind(section);
    return new Factory() {
      @Override
      public String location() {
        return config.location();
      }

      @Override
      public CheckpointStore create(StoreEnvironment environment) {
        return S3CheckpointStore.create(config, environment);
      }
    };
  }
}
