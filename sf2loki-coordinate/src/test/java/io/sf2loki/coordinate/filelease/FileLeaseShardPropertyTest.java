package io.sf2loki.coordinate.filelease;

import io.sf2loki.tck.ShardCoordinatorProperties;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/** The kit's shard properties for file_lease: four orgs' lease files and the roster file. */
class FileLeaseShardPropertyTest extends ShardCoordinatorProperties<FileLeaseShards> {

  @TempDir Path root;

  @Override
  protected FileLeaseShards newElection(SimulatedTime time) throws Exception {
    return new FileLeaseShards(
        Files.createTempDirectory(root, "example"), time, List.of("w", "x", "y", "z"), 0);
  }
}
