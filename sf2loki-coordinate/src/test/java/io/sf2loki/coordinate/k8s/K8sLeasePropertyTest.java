package io.sf2loki.coordinate.k8s;

import io.sf2loki.tck.LeaseCoordinatorProperties;
import io.sf2loki.tck.LeaseDamage;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's lease properties for k8s_lease: contenders on one Lease of an in-memory API server with
 * real resourceVersion CAS, behind client-java, and one real state file; besides deletion and
 * lowered leaseTransitions, kubectl edits clear the holder or empty the spec.
 */
class K8sLeasePropertyTest extends LeaseCoordinatorProperties<K8sLeaseElection> {

  @TempDir Path root;

  @Override
  protected K8sLeaseElection newElection(SimulatedTime time) throws Exception {
    return new K8sLeaseElection(Files.createTempDirectory(root, "example"), time);
  }

  @Override
  protected List<LeaseDamage<K8sLeaseElection>> damages() {
    return K8sLeaseElection.DAMAGES;
  }

  @Override
  protected long seed() {
    return 20260201L;
  }
}
