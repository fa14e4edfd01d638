package io.sf2loki.coordinate.filelease;

import io.sf2loki.coordinate.support.QuotaHintContract;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/** The poll after a quota refusal, for file_lease. */
class FileLeaseQuotaHintTest extends QuotaHintContract {

  @TempDir Path dir;

  @Override
  protected Duration renewInterval() {
    return FileLeaseFixture.RENEW;
  }

  @Override
  protected Coordinator coordinator(CoordinatorEnvironment environment) {
    Path lease = dir.resolve("leader.lease");
    FileLeaseConfig config =
        new FileLeaseConfig(lease, FileLeaseFixture.TTL, FileLeaseFixture.RENEW, Optional.empty());
    return new FileLeaseCoordinator(
        new FileLeaseFile(lease), "a", config, environment, time::sleep);
  }
}
