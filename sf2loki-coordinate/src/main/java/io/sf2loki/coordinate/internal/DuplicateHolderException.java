package io.sf2loki.coordinate.internal;

import io.sf2loki.spi.ClassifiedFailure;
import io.sf2loki.spi.FailureClass;

/**
 * Another live process campaigns with this process's holder identity: it renewed a lease carrying
 * our identity but not our per-process instance token. Two such processes would each take the
 * other's lease for their own, so both could lead; the coordinator refuses to run instead.
 * Permanent ({@code lease_duplicate_holder}): only a configuration change (unique identities) fixes
 * it.
 */
public final class DuplicateHolderException extends IllegalStateException
    implements ClassifiedFailure {

  private static final long serialVersionUID = 1L;

  private final FailureClass failure;

  /**
   * @param location the lease's path or {@code namespace/name}
   * @param holder the shared identity
   * @param key the config key that set it ({@code coordinate.file_lease.holder_id})
   * @param theirs the other process's instance token, if it wrote one
   * @param mine ours
   */
  public DuplicateHolderException(
      String location, String holder, String key, String theirs, String mine) {
    super(
        "another live process uses the holder identity '"
            + holder
            + "' for lease "
            + location
            + ": it renewed the lease as instance "
            + theirs
            + " while this process (instance "
            + mine
            + ") was waiting. Identities must be unique per process: give each replica its own "
            + key
            + ", or leave it unset for a unique default; refusing to campaign");
    this.failure =
        FailureClass.permanent(
            "lease_duplicate_holder",
            location,
            "give each replica its own " + key + ", or leave it unset for a unique default");
  }

  @Override
  public FailureClass failureClass() {
    return failure;
  }
}
