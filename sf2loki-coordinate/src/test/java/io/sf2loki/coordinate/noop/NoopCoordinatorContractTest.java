package io.sf2loki.coordinate.noop;

import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.tck.CoordinatorContract;
import io.sf2loki.tck.SimulatedTime;
import java.util.Optional;

/**
 * The kit's lifecycle contract for noop. Only the base contract applies: noop elects no single
 * leader among replicas and grants one unfenced term, so {@code LeaseCoordinatorContract} does not.
 */
class NoopCoordinatorContractTest extends CoordinatorContract {

  @Override
  protected Coordinator newCoordinator(
      String identity, SimulatedTime time, Optional<EpochFloor> floor) {
    return new NoopCoordinator(identity);
  }
}
