package io.sf2loki.coordinate.internal;

import io.sf2loki.spi.EpochFloor;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Invariant 2: a winning acquire takes {@code max(lease epoch, store floor) + 1}, with the floor
 * read fresh at every acquire. A floor that cannot be read is logged and treated as absent, so the
 * election never depends on the state backend. The highest epoch this process has computed also
 * counts: raising an epoch is always safe, lowering one never is.
 *
 * <p>Thread-safe.
 */
public final class EpochRule {

  private static final Logger LOG = LoggerFactory.getLogger(EpochRule.class);

  private final Optional<EpochFloor> floor;
  private final String location;
  private long highestComputed;

  /**
   * @param floor the store's persisted epoch, when the store has the capability
   * @param location the lease's path or {@code namespace/name}, for messages
   */
  public EpochRule(Optional<EpochFloor> floor, String location) {
    this.floor = Objects.requireNonNull(floor, "floor");
    this.location = Objects.requireNonNull(location, "location");
  }

  /**
   * The epoch to claim over a lease that records {@code leaseEpoch} (0 for a missing or corrupt
   * lease).
   */
  public synchronized long next(long leaseEpoch) {
    long base = Math.max(0, leaseEpoch);
    OptionalLong persisted = readFloor();
    if (persisted.isPresent() && persisted.getAsLong() > base) {
      LOG.warn(
          "state store epoch {} is above the epoch {} of lease {}: the lease was lost, deleted or"
              + " rewritten, or a --fence-leader repair claimed it; claiming epoch {}",
          persisted.getAsLong(),
          base,
          location,
          Math.max(persisted.getAsLong(), highestComputed) + 1);
      base = persisted.getAsLong();
    }
    long next = Math.max(base, highestComputed) + 1;
    highestComputed = next;
    return next;
  }

  private OptionalLong readFloor() {
    if (floor.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      return floor.get().persistedEpoch();
    } catch (RuntimeException e) {
      LOG.warn(
          "cannot read the state store's epoch for lease {}; treating it as absent ({}: {})",
          location,
          e.getClass().getSimpleName(),
          e.getMessage());
      return OptionalLong.empty();
    }
  }
}
