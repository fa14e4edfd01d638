package io.sf2loki.model;

import java.util.Objects;

/**
 * A resume position carried by a {@link LogEntry}: once Loki has accepted the entry (and every
 * entry before it on the same key), {@code value} may be committed under {@code key}.
 *
 * <p>Keys follow the namespaces of the checkpoint document ({@code eventlogfile:Login}, {@code
 * pubsub:/event/LoginEventStream}, ...); values are opaque to the pipeline and the stores.
 *
 * @param key the checkpoint key; never blank, never a reserved key ({@value #RESERVED_EPOCH_KEY},
 *     {@value #RESERVED_WRITER_KEY}, {@value #RESERVED_MIGRATED_KEY})
 * @param value the position to store once delivered
 */
public record CheckpointToken(String key, String value) {

  /** The reserved document key holding the epoch of the last writer. */
  public static final String RESERVED_EPOCH_KEY = "__fence_epoch__";

  /**
   * The reserved document key holding the random per-process token of the last single-instance
   * ({@code noop}) daemon that wrote an S3 or GCS document: a conditional-write conflict caused by
   * another token is a second instance, not an operator's repair.
   */
  public static final String RESERVED_WRITER_KEY = "__writer__";

  /**
   * The reserved key of an org's own checkpoint document (multi-org) naming the document its
   * positions were first taken from: once it is there, the legacy document is never read again.
   */
  public static final String RESERVED_MIGRATED_KEY = "__migrated_from__";

  /** True for the keys the stores and views maintain themselves, which are not checkpoints. */
  public static boolean isReserved(String key) {
    return RESERVED_EPOCH_KEY.equals(key)
        || RESERVED_WRITER_KEY.equals(key)
        || RESERVED_MIGRATED_KEY.equals(key);
  }

  public CheckpointToken {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    if (key.isBlank()) {
      throw new IllegalArgumentException("checkpoint key must not be blank");
    }
    if (RESERVED_EPOCH_KEY.equals(key)) {
      throw new IllegalArgumentException(RESERVED_EPOCH_KEY + " is reserved for the fence epoch");
    }
    if (RESERVED_WRITER_KEY.equals(key) || RESERVED_MIGRATED_KEY.equals(key)) {
      throw new IllegalArgumentException(key + " is reserved for the stores");
    }
  }
}
