package io.sf2loki.coordinate.filelease;

import io.sf2loki.tck.LeaseCoordinatorContract;
import io.sf2loki.tck.LeaseElection;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The kit's lease-coordinator contract for file_lease, on a real lease file. */
class FileLeaseCoordinatorContractTest extends LeaseCoordinatorContract {

  @TempDir Path dir;

  @Override
  protected LeaseElection newElection(SimulatedTime time) {
    return new FileLeaseElection(dir, time);
  }
}
