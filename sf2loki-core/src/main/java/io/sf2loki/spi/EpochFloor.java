package io.sf2loki.spi;

import java.util.OptionalLong;

/**
 * Capability of a {@link CheckpointStore}: the highest epoch it has durably recorded. Coordinators
 * take {@code max(lease epoch, persistedEpoch) + 1} at every acquire so that a lost or rewritten
 * lease can never produce an epoch the store would reject (invariant 2).
 */
public interface EpochFloor {

  /**
   * The epoch persisted with the checkpoints, read fresh from the backend (never from a cache).
   *
   * @return empty when the document or the reserved key is absent
   * @throws CorruptStateException the reserved key holds a non-integer; the message names the
   *     location and the repair command
   * @throws StoreUnavailableException the backend could not be read
   */
  OptionalLong persistedEpoch();
}
