package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.AcquireRun;
import io.sf2loki.tck.FakeCheckpointStore;
import io.sf2loki.tck.UnwritablePaths;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file lease that can never be written fails its campaigns permanently: the engine gives up after
 * its attempts with the lease's path and the fix, instead of campaigning once a poll forever.
 */
class FileLeaseCampaignFailureTest {

  @TempDir Path dir;

  private static AcquireRun engineOn(Path lease) {
    FileLeaseConfig config =
        new FileLeaseConfig(lease, Duration.ofSeconds(2), Duration.ofMillis(500), Optional.empty());
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            Clock.systemUTC(),
            Ticker.SYSTEM,
            Optional.empty(),
            new SimpleMeterRegistry(),
            Map.of());
    AtomicInteger n = new AtomicInteger();
    return AcquireRun.start(
        new FakeCheckpointStore(),
        () ->
            new FileLeaseCoordinator(
                new FileLeaseFile(lease), "node-" + n.incrementAndGet(), config, env, Sleeper.REAL),
        AcquireRun.FAST);
  }

  @Test
  void anUnwritableLeaseDirectoryEndsTheEngine() throws Exception {
    Path lease = UnwritablePaths.inUnwritableDirectory(dir, "leader.lease");
    try (AcquireRun run = engineOn(lease)) {
      assertThat(run.outcome())
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure().reason()).isEqualTo("lease_access_denied");
                assertThat(f.failure().fix()).contains("coordinate.file_lease.path");
                assertThat(f.attempts()).isEqualTo(3);
              });
      assertThat(run.campaigns()).isEqualTo(3);
    }
  }

  @Test
  void aLeaseDirectoryThatIsAFileEndsTheEngine() throws Exception {
    Path lease = UnwritablePaths.underARegularFile(dir, "leader.lease");
    try (AcquireRun run = engineOn(lease)) {
      assertThat(run.outcome())
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure().reason()).isEqualTo("lease_not_a_directory");
                assertThat(f.failure().resource()).isEqualTo(lease.toString());
                assertThat(f.describe()).contains("cannot read file lease");
              });
    }
  }

  @Test
  void aWritableLeaseDirectoryLeads() throws Exception {
    try (AcquireRun run = engineOn(dir.resolve("leader.lease"))) {
      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Finished.class);
      assertThat(run.failures("permanent", "lease_access_denied")).isZero();
    }
  }
}
