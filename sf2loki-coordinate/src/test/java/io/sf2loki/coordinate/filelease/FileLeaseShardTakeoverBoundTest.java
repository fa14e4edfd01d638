package io.sf2loki.coordinate.filelease;

import io.sf2loki.tck.ShardTakeoverBound;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/** The kit's shard takeover bound for file_lease: ten orgs' lease files and the roster file. */
class FileLeaseShardTakeoverBoundTest extends ShardTakeoverBound<FileLeaseShards> {

  @TempDir Path dir;

  @Override
  protected Duration claimAllowance() {
    FileLeaseConfig config =
        new FileLeaseConfig(
            dir.resolve("leader.lease"),
            FileLeaseFixture.TTL,
            FileLeaseFixture.RENEW,
            Optional.empty());
    return config.verifyPause().multipliedBy(2);
  }

  @Override
  protected FileLeaseShards newElection(SimulatedTime time, List<String> shards) {
    return new FileLeaseShards(dir, time, shards, 0);
  }
}
