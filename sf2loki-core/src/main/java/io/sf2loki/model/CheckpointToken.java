package io.sf2loki.model;

import java.util.Objects;

/**
 * A resume position carried by a {@link LogEntry}: once Loki has accepted the entry (and every
 * entry before it on the same key), {@code value} may be committed under {@code key}.
 *
 * <p>Keys follow the namespaces of the checkpoint document ({@code eventlogfile:Login}, {@code
 * pubsub:/event/LoginEventStream}, ...); values are opaque to the pipeline and the stores.
 *
 * @param key the checkpoint key; never blank, never the reserved {@value #RESERVED_EPOCH_KEY}
 * @param value the position to store once delivered
 */
public record CheckpointToken(String key, String value) {

  /** The reserved document key holding the epoch of the last writer. */
  public static final String RESERVED_EPOCH_KEY = "__fence_epoch__";

  public CheckpointToken {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    if (key.isBlank()) {
      throw new IllegalArgumentException("checkpoint key must not be blank");
    }
    if (RESERVED_EPOCH_KEY.equals(key)) {
      throw new IllegalArgumentException(RESERVED_EPOCH_KEY + " is reserved for the fence epoch");
    }
  }
}
