package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreAccessDeniedException;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.TestTiming;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File-store specifics: permissions, temp files, the sidecar lock, metrics. */
class FileCheckpointStoreTest {

  @TempDir Path dir;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  private FileCheckpointStore store(Path path, boolean singleInstance, Duration lockTimeout) {
    StoreEnvironment env = new StoreEnvironment(singleInstance, Clock.systemUTC(), metrics);
    return new FileCheckpointStore(new FileStoreConfig(path, lockTimeout), env, Ticker.SYSTEM);
  }

  private FileCheckpointStore store(Path path, boolean singleInstance) {
    return store(path, singleInstance, Duration.ofSeconds(5));
  }

  @Test
  void stateFileIsWrittenOwnerOnlyInACreatedDirectory() throws Exception {
    Path path = dir.resolve("a/b/state.json");
    try (FileCheckpointStore store = store(path, false)) {
      store.commit(Map.of("k", "v"), Fence.NONE);
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
        .isEqualTo("rw-------");
  }

  @Test
  void constructionAndCloseTouchNothing() {
    Path path = dir.resolve("state.json");
    store(path, true).close();
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void writesLeaveNoTempFilesBehind() throws Exception {
    Path path = dir.resolve("state.json");
    try (FileCheckpointStore store = store(path, false)) {
      for (int i = 0; i < 20; i++) {
        store.commit(Map.of("k", "v" + i), Fence.NONE);
      }
    }
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("state.json", "state.json.lock");
    }
  }

  @Test
  void strayTempFilesFromACrashAreIgnoredAndCleaned() throws Exception {
    Path path = dir.resolve("state.json");
    Files.writeString(path, "{\"k\": \"old\"}");
    Path stray = dir.resolve(".state.json.12345.tmp");
    Files.writeString(stray, "{\"k\": \"half");
    try (FileCheckpointStore store = store(path, true)) {
      assertThat(store.load("k")).contains("old");
    }
    assertThat(stray).doesNotExist();
    assertThat(metrics.counter("sf2loki_stray_files_removed", "kind", "state").count())
        .isEqualTo(1.0);
  }

  @Test
  void stateFileIsWrittenWithTheConfiguredModeForReplicasUnderDifferentUids() throws Exception {
    Path path = dir.resolve("state.json");
    StoreEnvironment env = new StoreEnvironment(false, Clock.systemUTC(), metrics);
    FileStoreConfig config =
        new FileStoreConfig(
            path,
            Duration.ofSeconds(5),
            FileStoreConfig.DEFAULT_IO_TIMEOUT,
            io.sf2loki.files.FileMode.parse("0660").orElseThrow());
    try (FileCheckpointStore store = new FileCheckpointStore(config, env, Ticker.SYSTEM)) {
      store.commit(Map.of("k", "v"), Fence.NONE);
      store.commit(Map.of("k", "w"), Fence.NONE);
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
        .isEqualTo("rw-rw----");
  }

  @Test
  void secondSingleInstanceFailsAtFirstUseNamingStateAndLockPaths() {
    Path path = dir.resolve("state.json");
    try (FileCheckpointStore first = store(path, true);
        FileCheckpointStore second = store(path, true)) {
      first.loadAll();
      assertThatThrownBy(second::loadAll)
          .isInstanceOf(StoreLockedException.class)
          .hasMessageContaining(path.toString())
          .hasMessageContaining(path + ".lock")
          .hasMessageContaining("another sf2loki instance");
    }
  }

  @Test
  void lifetimeLockIsReleasedByClose() {
    Path path = dir.resolve("state.json");
    FileCheckpointStore first = store(path, true);
    first.commit(Map.of("k", "1"), Fence.NONE);
    first.close();
    first.close(); // idempotent
    try (FileCheckpointStore second = store(path, true)) {
      assertThat(second.load("k")).contains("1");
    }
  }

  @Test
  void coordinatedStoreHoldsNoLockBetweenWrites() {
    Path path = dir.resolve("state.json");
    try (FileCheckpointStore demoted = store(path, false);
        FileCheckpointStore promoted = store(path, false)) {
      demoted.commit(Map.of("k", "1"), new FakeTerm("a", 1));
      promoted.commit(Map.of("k", "2"), new FakeTerm("b", 2));
      assertThat(demoted.load("k")).contains("2");
    }
  }

  @Test
  void coordinatedWriteWaitsForTheSidecarLockHeldByAnotherWriter() throws Exception {
    Path path = dir.resolve("state.json");
    try (FileCheckpointStore store = store(path, false);
        FileChannel ch =
            FileChannel.open(
                dir.resolve("state.json.lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
      FileLock held = ch.lock();
      CompletableFuture<Void> write =
          CompletableFuture.runAsync(() -> store.commit(Map.of("k", "1"), Fence.NONE));
      assertThat(write).isNotDone();
      assertThat(path).doesNotExist();
      held.release();
      write.get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
      assertThat(store.load("k")).contains("1");
    }
  }

  @Test
  void coordinatedWriteGivesUpAfterTheLockTimeout() throws Exception {
    Path path = dir.resolve("state.json");
    try (FileCheckpointStore store = store(path, false, Duration.ofMillis(50));
        FileChannel ch =
            FileChannel.open(
                dir.resolve("state.json.lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
      ch.lock();
      assertThatThrownBy(() -> store.commit(Map.of("k", "1"), Fence.NONE))
          .isInstanceOf(StoreLockedException.class)
          .hasMessageContaining("state.json.lock");
    }
    assertThat(path).doesNotExist();
  }

  @Test
  void unwritableDirectoryIsAnAccessDeniedErrorNamingThePath() throws Exception {
    Path path = dir.resolve("ro/state.json");
    Files.createDirectories(path.getParent());
    Files.writeString(path.resolveSibling("state.json.lock"), "");
    Files.setPosixFilePermissions(path.getParent(), PosixFilePermissions.fromString("r-x------"));
    try (FileCheckpointStore store = store(path, false)) {
      org.junit.jupiter.api.Assumptions.assumeFalse(Files.isWritable(path.getParent()), "root");
      assertThatThrownBy(() -> store.commit(Map.of("k", "1"), Fence.NONE))
          .isInstanceOf(StoreAccessDeniedException.class)
          .hasMessageContaining(path.toString());
    } finally {
      Files.setPosixFilePermissions(path.getParent(), PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void fencedAndFailedCommitsAreCounted() {
    Path path = dir.resolve("state.json");
    try (FileCheckpointStore store = store(path, false)) {
      store.commit(Map.of("k", "1"), new FakeTerm("new", 5));
      assertThatThrownBy(() -> store.commit(Map.of("k", "0"), new FakeTerm("old", 4)))
          .isInstanceOf(FencedException.class);
    }
    assertThat(metrics.counter("sf2loki_checkpoint_fenced_commits", "store", "file").count())
        .isEqualTo(1.0);
    assertThat(
            metrics
                .counter("sf2loki_checkpoint_commit_failures", "store", "file", "reason", "fenced")
                .count())
        .isEqualTo(1.0);
  }
}
