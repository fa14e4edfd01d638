package io.sf2loki.coordinate.k8s;

import io.sf2loki.tck.ShardTakeoverBound;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's shard takeover bound for k8s_lease: ten orgs' Leases and the roster Lease on the
 * in-memory API server, behind client-java.
 */
class K8sLeaseShardTakeoverBoundTest extends ShardTakeoverBound<K8sLeaseShards> {

  @TempDir Path dir;

  @Override
  protected K8sLeaseShards newElection(SimulatedTime time, List<String> shards) {
    return new K8sLeaseShards(dir, time, shards, 0);
  }
}
