package io.sf2loki.coordinate.filelease;

import io.sf2loki.coordinate.support.SlowRosterContract;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/** Renewals under a roster that does not answer, for file_lease. */
class FileLeaseSlowRosterTest extends SlowRosterContract {

  @TempDir Path dir;

  @Override
  protected Duration ttl() {
    return FileLeaseFixture.TTL;
  }

  @Override
  protected Duration renewInterval() {
    return FileLeaseFixture.RENEW;
  }

  @Override
  protected Coordinator coordinator(CoordinatorEnvironment environment) {
    Path lease = dir.resolve("leader-emea.lease");
    FileLeaseConfig config =
        new FileLeaseConfig(lease, FileLeaseFixture.TTL, FileLeaseFixture.RENEW, Optional.empty());
    return new FileLeaseCoordinator(
        new FileLeaseFile(lease), "a", config, environment, time::sleep);
  }
}
