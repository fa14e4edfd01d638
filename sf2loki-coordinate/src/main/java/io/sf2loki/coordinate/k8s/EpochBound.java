package io.sf2loki.coordinate.k8s;

import io.sf2loki.spi.ClassifiedFailure;
import io.sf2loki.spi.FailureClass;

/**
 * Kubernetes' {@code leaseTransitions}, our epoch, is an int32: an epoch above {@link
 * Integer#MAX_VALUE} cannot be written, and must be a clear error rather than an arithmetic
 * overflow. It is reached only through a hand-set {@code __fence_epoch__} (or lease), since every
 * acquire adds one.
 */
public final class EpochBound {

  /** The highest epoch a Lease can record. */
  public static final long MAX_EPOCH = Integer.MAX_VALUE;

  private EpochBound() {}

  /**
   * @return {@code epoch} as a {@code leaseTransitions} value
   * @throws EpochOutOfRangeException when it does not fit
   */
  static int leaseTransitions(long epoch, String location) {
    if (epoch < 0 || epoch > MAX_EPOCH) {
      throw new EpochOutOfRangeException(
          location,
          "epoch "
              + epoch
              + " for lease "
              + location
              + " does not fit Kubernetes' int32 leaseTransitions (at most "
              + MAX_EPOCH
              + "): the state store's __fence_epoch__ or the Lease's leaseTransitions was set too"
              + " high by hand. With every replica stopped, lower it with `sf2loki-cli state set"
              + " --force __fence_epoch__ N` (N below "
              + MAX_EPOCH
              + ") and delete the Lease; refusing to campaign");
    }
    return (int) epoch;
  }

  /**
   * An epoch beyond what a Kubernetes Lease can carry; permanent ({@code lease_epoch_out_of_range})
   * until an operator lowers it.
   */
  public static final class EpochOutOfRangeException extends IllegalStateException
      implements ClassifiedFailure {
    private static final long serialVersionUID = 1L;

    private final FailureClass failure;

    EpochOutOfRangeException(String location, String message) {
      super(message);
      this.failure =
          FailureClass.permanent(
              "lease_epoch_out_of_range",
              location,
              "with every replica stopped, lower __fence_epoch__ with `sf2loki-cli state set --force"
                  + " __fence_epoch__ N` (N below "
                  + MAX_EPOCH
                  + ") and delete the Lease");
    }

    @Override
    public FailureClass failureClass() {
      return failure;
    }
  }
}
