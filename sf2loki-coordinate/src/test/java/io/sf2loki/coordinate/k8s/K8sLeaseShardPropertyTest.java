package io.sf2loki.coordinate.k8s;

import io.sf2loki.tck.ShardCoordinatorProperties;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's shard properties for k8s_lease: three orgs' Leases and the roster Lease on an in-memory
 * API server with real resourceVersion CAS, behind client-java; slack 1.
 */
class K8sLeaseShardPropertyTest extends ShardCoordinatorProperties<K8sLeaseShards> {

  @TempDir Path root;

  @Override
  protected K8sLeaseShards newElection(SimulatedTime time) throws Exception {
    return new K8sLeaseShards(
        Files.createTempDirectory(root, "example"), time, List.of("x", "y", "z"), 1);
  }

  @Override
  protected long seed() {
    return 20260401L;
  }
}
