package io.sf2loki.config;

import java.util.Map;
import java.util.Optional;

/**
 * How the names of documents and files derived from a configured one are made: a suffix before the
 * extension ({@code state.json → state-prod.json}), and which key names the checkpoint document of
 * each built-in store.
 */
public final class DocumentNames {

  /** The key naming the checkpoint document, per built-in store type. */
  private static final Map<String, String> DOCUMENT_KEYS =
      Map.of("file", "state.file.path", "s3", "state.s3.key", "gcs", "state.gcs.object_name");

  private DocumentNames() {}

  /** The key naming the checkpoint document of the store type {@code store}, when known. */
  public static Optional<String> documentKey(String store) {
    return Optional.ofNullable(DOCUMENT_KEYS.get(store));
  }

  /**
   * {@code dir/state.json → dir/state<suffix>.json}; a name without an extension (or a dot file)
   * gains the suffix at its end. Works for paths, S3 keys and GCS object names alike.
   */
  public static String suffixed(String path, String suffix) {
    int slash = path.lastIndexOf('/');
    int dot = path.lastIndexOf('.');
    if (dot > slash + 1) {
      return path.substring(0, dot) + suffix + path.substring(dot);
    }
    return path + suffix;
  }
}
