package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.AcquireRun;
import io.sf2loki.tck.UnwritablePaths;
import io.sf2loki.testkit.TestTiming;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state file's failures at acquire, through the engine: a lock another sf2loki holds under
 * noop, an unwritable directory and a parent that is a file end it after its attempts with the path
 * and the fix; a lock held for a moment under a lease coordinator is waited out.
 */
class FileStoreFailureAtAcquireTest {

  @TempDir Path dir;

  private static FileCheckpointStore store(Path path, boolean singleInstance) {
    return new FileCheckpointStore(
        new FileStoreConfig(path, Duration.ofMillis(50)),
        new StoreEnvironment(singleInstance, Clock.systemUTC(), new SimpleMeterRegistry()),
        Ticker.SYSTEM);
  }

  private static EngineOutcome.Failed failed(EngineOutcome outcome) {
    assertThat(outcome).isInstanceOf(EngineOutcome.Failed.class);
    return (EngineOutcome.Failed) outcome;
  }

  @Test
  void aStateFileAnotherInstanceHoldsUnderNoopEndsTheEngine() throws Exception {
    Path path = dir.resolve("state.json");
    try (FileCheckpointStore running = store(path, true);
        FileCheckpointStore second = store(path, true)) {
      running.loadAll(); // the first instance holds the lifetime lock
      try (AcquireRun run = AcquireRun.alwaysLeader(second, AcquireRun.FAST)) {
        EngineOutcome.Failed failed = failed(run.outcome());

        assertThat(failed.failure())
            .isEqualTo(
                FailureClass.permanent(
                    "store_locked",
                    path.toString(),
                    "stop the other sf2loki instance, or give each instance its own"
                        + " state.file.path"));
        assertThat(failed.attempts()).isEqualTo(3);
        assertThat(failed.describe()).contains("is locked by another process");
      }
    }
  }

  @Test
  void aLockHeldForAMomentUnderALeaseCoordinatorIsWaitedOut() throws Exception {
    Path path = dir.resolve("state.json");
    try (FileCheckpointStore store = store(path, false);
        FileChannel channel =
            FileChannel.open(
                dir.resolve("state.json.lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        AcquireRun run = AcquireRun.alwaysLeader(store, AcquireRun.FAST)) {
      FileLock cliWrite = channel.lock(); // a frozen ex-leader's or a CLI's write, mid-way
      await()
          .atMost(TestTiming.seconds(20))
          .until(() -> run.failures("transient", "store_locked") >= 4);

      cliWrite.release();

      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Finished.class);
      assertThat(store.loadAll()).isEqualTo(Map.of());
    }
  }

  @Test
  void anUnwritableStateDirectoryEndsTheEngine() throws Exception {
    Path path = UnwritablePaths.inUnwritableDirectory(dir, "state.json");
    try (FileCheckpointStore store = store(path, true);
        AcquireRun run = AcquireRun.alwaysLeader(store, AcquireRun.FAST)) {
      EngineOutcome.Failed failed = failed(run.outcome());

      assertThat(failed.failure().reason()).isEqualTo("store_access_denied");
      assertThat(failed.failure().fix()).contains("state.file.path");
      assertThat(run.failures("permanent", "store_access_denied")).isEqualTo(3);
    }
  }

  @Test
  void aStateDirectoryThatIsAFileEndsTheEngine() throws Exception {
    Path path = UnwritablePaths.underARegularFile(dir, "state.json");
    try (FileCheckpointStore store = store(path, false);
        AcquireRun run = AcquireRun.alwaysLeader(store, AcquireRun.FAST)) {
      EngineOutcome.Failed failed = failed(run.outcome());

      assertThat(failed.failure().reason()).isEqualTo("store_not_a_directory");
      assertThat(failed.failure().resource()).startsWith(dir.resolve("file").toString());
      assertThat(failed.describe()).contains("fix: a parent of").contains("state.file.path");
    }
  }
}
