package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.FakeTerm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A state file on a file system that refuses locks (NFS without lockd answers ENOLCK): writes go
 * ahead without the sidecar lock, and the epoch claim, which cannot be a compare-and-set there,
 * degrades to the plain epoch stamp instead of keeping the daemon from ever leading.
 */
class FileStoreWithoutLocksTest {

  @TempDir Path dir;

  private FileCheckpointStore lockless() {
    StoreEnvironment env =
        new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry());
    return new FileCheckpointStore(
        new FileStoreConfig(dir.resolve("state.json"), Duration.ofSeconds(1)),
        env,
        Ticker.SYSTEM,
        channel -> {
          throw new IOException("No locks available");
        });
  }

  @Test
  void commitsGoAheadWithoutTheLock() {
    try (FileCheckpointStore store = lockless()) {
      store.commit(Map.of("k", "v"), new FakeTerm("a", 3));
      assertThat(store.loadAll()).containsEntry("k", "v").containsEntry("__fence_epoch__", "3");
    }
  }

  @Test
  void claimDegradesToTheStampSoAnEqualEpochIsNotRefused() {
    try (FileCheckpointStore a = lockless();
        FileCheckpointStore b = lockless()) {
      a.claimEpoch(new FakeTerm("a", 5));
      b.claimEpoch(new FakeTerm("b", 5));
      assertThat(a.persistedEpoch()).hasValue(5);
    }
  }

  @Test
  void degradedClaimStillRefusesALowerEpoch() {
    try (FileCheckpointStore store = lockless()) {
      store.claimEpoch(new FakeTerm("a", 7));
      assertThatThrownBy(() -> store.claimEpoch(new FakeTerm("b", 6)))
          .isInstanceOf(FencedException.class);
      assertThat(store.persistedEpoch()).hasValue(7);
    }
  }
}
