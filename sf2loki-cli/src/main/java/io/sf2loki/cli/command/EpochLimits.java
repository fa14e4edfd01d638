package io.sf2loki.cli.command;

import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.coordinate.k8s.EpochBound;

/**
 * The epoch an operator may write: under {@code k8s_lease} the next leader takes the stored epoch
 * plus one into the Lease's int32 {@code leaseTransitions}, so a stored epoch at or above {@link
 * Integer#MAX_VALUE} would only fail at the next acquire. Refused here, where it is typed.
 */
final class EpochLimits {

  private EpochLimits() {}

  /**
   * @throws CommandFailedException when {@code epoch} leaves the next leader no valid epoch
   */
  static void check(Sf2LokiConfig config, long epoch) {
    if ("k8s_lease".equals(config.coordinatorType()) && epoch >= EpochBound.MAX_EPOCH) {
      throw new CommandFailedException(
          "refusing to set '"
              + StateCommand.RESERVED
              + "' to "
              + epoch
              + ": under coordinate.type = k8s_lease the next leader's epoch ("
              + epoch
              + " + 1) must fit the Lease's int32 leaseTransitions (at most "
              + EpochBound.MAX_EPOCH
              + "); use a value below "
              + EpochBound.MAX_EPOCH);
    }
  }
}
