package io.sf2loki.coordinate.k8s;

import io.sf2loki.tck.LeaseCoordinatorContract;
import io.sf2loki.tck.LeaseElection;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The kit's lease-coordinator contract for k8s_lease, on the in-memory Lease API server. */
class K8sLeaseCoordinatorContractTest extends LeaseCoordinatorContract {

  @TempDir Path dir;

  @Override
  protected LeaseElection newElection(SimulatedTime time) {
    return new K8sLeaseElection(dir, time);
  }
}
