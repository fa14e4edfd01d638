package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.files.FileMode;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreTimeoutException;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state file on a mount that stops answering (NFS, EFS): a read, a write or a lock that hangs
 * makes the store call fail with a typed, transient timeout within {@code state.file.io_timeout},
 * instead of blocking its caller for ever. (Without the deadline a test here would hang: the class
 * timeout turns that into a failure.)
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileStoreHungIoTest {

  private static final Duration IO_TIMEOUT = TestTiming.millis(300);

  @TempDir Path dir;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final CountDownLatch mountBack = new CountDownLatch(1);

  @AfterEach
  void mountAnswersAgain() {
    mountBack.countDown();
    // The released calls now do their real writes: let them land before @TempDir is deleted, or
    // its clean-up races a temp file they create.
    org.awaitility.Awaitility.await()
        .atMost(TestTiming.seconds(10))
        .until(() -> stuckThreads() == 0);
  }

  private double stuckThreads() {
    return registry.find("sf2loki_file_io_stuck_threads").gauges().stream()
        .mapToDouble(io.micrometer.core.instrument.Gauge::value)
        .sum();
  }

  /** Blocks like a system call on a hung mount until the test brings the mount back. */
  private void hang() {
    while (mountBack.getCount() > 0) {
      try {
        mountBack.await();
      } catch (InterruptedException e) {
        // a hung NFS call ignores interrupts
      }
    }
  }

  private final class HungFiles implements StateFiles {
    volatile boolean reads;
    volatile boolean writes;

    @Override
    public byte[] read(Path path) throws IOException {
      if (reads) {
        hang();
      }
      return StateFiles.LOCAL.read(path);
    }

    @Override
    public void replace(Path path, byte[] bytes, FileMode mode) throws IOException {
      if (writes) {
        hang();
      }
      StateFiles.LOCAL.replace(path, bytes, mode);
    }
  }

  private FileCheckpointStore store(HungFiles files, SidecarLock.Locker locker) {
    return new FileCheckpointStore(
        new FileStoreConfig(dir.resolve("state.json"), TestTiming.seconds(1), IO_TIMEOUT),
        new StoreEnvironment(false, Clock.systemUTC(), registry),
        Ticker.SYSTEM,
        locker,
        files);
  }

  private HungFiles hung(boolean reads, boolean writes) {
    HungFiles files = new HungFiles();
    files.reads = reads;
    files.writes = writes;
    return files;
  }

  private FileCheckpointStore store(HungFiles files) {
    return store(files, FileChannel::tryLock);
  }

  private static Duration since(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Test
  void aHungReadFailsTheLoadWithATimeoutNamingThePathAndTheDeadline() {
    try (FileCheckpointStore store = store(hung(true, false))) {
      long start = System.nanoTime();

      assertThatThrownBy(store::loadAll)
          .isInstanceOf(StoreTimeoutException.class)
          .hasMessageContaining(dir.resolve("state.json").toString())
          .hasMessageContaining("state.file.io_timeout");

      assertThat(since(start)).isLessThan(IO_TIMEOUT.plus(TestTiming.seconds(2)));
    }
  }

  @Test
  void aHungWriteFailsTheCommitWithATimeoutAndIsCounted() {
    try (FileCheckpointStore store = store(hung(false, true))) {
      long start = System.nanoTime();

      assertThatThrownBy(() -> store.commit(Map.of("k", "v"), new FakeTerm("a", 1)))
          .isInstanceOf(StoreTimeoutException.class)
          .hasMessageContaining("write of " + dir.resolve("state.json"));

      assertThat(since(start)).isLessThan(IO_TIMEOUT.multipliedBy(3).plus(TestTiming.seconds(2)));
      assertThat(
              registry
                  .get("sf2loki_checkpoint_commit_failures")
                  .tags("store", "file", "reason", "timeout")
                  .counter()
                  .count())
          .isEqualTo(1);
      assertThat(
              registry
                  .get("sf2loki_file_io_timeouts")
                  .tags("file", "state", "operation", "write")
                  .counter()
                  .count())
          .isEqualTo(1);
    }
  }

  @Test
  void aHungLockFailsTheCommitAndALockTakenAfterTheDeadlineIsReleased() {
    SidecarLock.Locker hungLocker =
        channel -> {
          hang();
          return channel.tryLock();
        };
    try (FileCheckpointStore stuck = store(hung(false, false), hungLocker);
        FileCheckpointStore other = store(hung(false, false))) {
      assertThatThrownBy(() -> stuck.commit(Map.of("k", "1"), new FakeTerm("a", 1)))
          .isInstanceOf(StoreTimeoutException.class)
          .hasMessageContaining("lock of " + stuck.lockPath());

      mountBack.countDown(); // the stuck attempt now takes the lock, after its caller gave up

      await()
          .atMost(TestTiming.seconds(10))
          .ignoreExceptions()
          .untilAsserted(() -> other.commit(Map.of("k", "2"), new FakeTerm("b", 2)));
      assertThat(other.load("k")).contains("2");
    }
  }

  @Test
  void hungCallsNeverHoldMoreThanTwoThreadsAndLaterCallsFailAtOnce() {
    try (FileCheckpointStore store = store(hung(false, true))) {
      for (int i = 0; i < FileStoreIo.THREADS; i++) {
        assertThatThrownBy(() -> store.commit(Map.of("k", "v"), new FakeTerm("a", 1)))
            .isInstanceOf(StoreTimeoutException.class);
      }
      long start = System.nanoTime();

      assertThatThrownBy(() -> store.commit(Map.of("k", "v"), new FakeTerm("a", 1)))
          .isInstanceOf(StoreTimeoutException.class)
          .hasMessageContaining("not started");

      assertThat(since(start)).isLessThan(IO_TIMEOUT);
      assertThat(registry.get("sf2loki_file_io_stuck_threads").gauge().value())
          .isEqualTo(FileStoreIo.THREADS);
    }
  }
}
