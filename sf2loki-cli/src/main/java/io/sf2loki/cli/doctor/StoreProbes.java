package io.sf2loki.cli.doctor;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.registry.Providers;
import io.sf2loki.spi.CheckpointStoreProvider;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The doctor-owned twin of the configured store: the same backend, bucket and credentials, but a
 * document no checkpoint lives in ({@code .sf2loki-doctor-probe} next to the state file, {@code
 * <key>.sf2loki-doctor-probe} in the bucket), so probing it can never disturb a running leader.
 */
final class StoreProbes {

  /** The probe document's name (file store) or suffix (object stores). */
  static final String PROBE = ".sf2loki-doctor-probe";

  /** The key of each built-in store type that names its document. */
  private static final Map<String, String> LOCATION_KEYS =
      Map.of("file", "path", "s3", "key", "gcs", "object_name");

  private StoreProbes() {}

  /** The probe store's factory; empty for a store type whose document key is unknown. */
  static Optional<CheckpointStoreProvider.Factory> probeFactory(
      Sf2LokiConfig config, Providers providers) {
    String type = config.storeType();
    String key = LOCATION_KEYS.get(type);
    if (key == null) {
      return Optional.empty();
    }
    Config resolved = config.loaded().resolved();
    String path = "state." + type + "." + key;
    String live = resolved.getString(path);
    String probe =
        "file".equals(type)
            ? Path.of(live).toAbsolutePath().resolveSibling(PROBE).toString()
            : live + PROBE;
    ConfigReader reader =
        ConfigReader.of(resolved.withValue(path, ConfigValueFactory.fromAnyRef(probe)));
    ConfigReader state = reader.section("state");
    CheckpointStoreProvider provider = providers.stores().select(state, "store").orElseThrow();
    CheckpointStoreProvider.Factory factory = provider.configure(state.section(type));
    reader.throwIfInvalid();
    return Optional.of(factory);
  }
}
