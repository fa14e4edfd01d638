package io.sf2loki.coordinate.filelease;

import io.sf2loki.tck.LeaseCoordinatorProperties;
import io.sf2loki.tck.LeaseDamage;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's lease properties for file_lease: contenders on one lease file and one real state file
 * (a directory per example); besides deletion and a lowered epoch, the lease file is truncated and
 * overwritten with broken JSON.
 */
class FileLeasePropertyTest extends LeaseCoordinatorProperties<FileLeaseElection> {

  @TempDir Path root;

  @Override
  protected FileLeaseElection newElection(SimulatedTime time) throws Exception {
    return new FileLeaseElection(Files.createTempDirectory(root, "example"), time);
  }

  @Override
  protected List<LeaseDamage<FileLeaseElection>> damages() {
    return FileLeaseElection.DAMAGES;
  }
}
