package io.sf2loki.coordinate.support;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Term;
import io.sf2loki.spi.Ticker;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.file.FileStoreConfig;
import io.sf2loki.tck.FakeCheckpointStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The stores the fencing tests run against: the kit's in-memory {@link FakeCheckpointStore} and the
 * real {@link FileCheckpointStore} from sf2loki-state (a test-scoped dependency only), opened as a
 * daemon under a lease coordinator opens it (no lifetime lock).
 */
public enum StoreKind {
  MEMORY {
    @Override
    public FencedStore open(Path dir) {
      return new Forwarding<>(new FakeCheckpointStore());
    }
  },
  FILE {
    @Override
    public FencedStore open(Path dir) {
      return fileStore(dir.resolve("state.json"));
    }
  };

  /** A store in {@code dir}; every call to the file kind opens another instance on one file. */
  public abstract FencedStore open(Path dir);

  /** The real file store on {@code path}, as a lease-coordinated daemon opens it. */
  public static FencedStore fileStore(Path path) {
    StoreEnvironment env =
        new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry());
    return new Forwarding<>(new FileCheckpointStore(FileStoreConfig.of(path), env, Ticker.SYSTEM));
  }

  private record Forwarding<S extends CheckpointStore & EpochFloor & EpochClaim>(S delegate)
      implements FencedStore {
    @Override
    public Map<String, String> loadAll() {
      return delegate.loadAll();
    }

    @Override
    public Optional<String> load(String key) {
      return delegate.load(key);
    }

    @Override
    public void commit(Map<String, String> updates, Fence fence) {
      delegate.commit(updates, fence);
    }

    @Override
    public void delete(Set<String> keys, Fence fence) {
      delegate.delete(keys, fence);
    }

    @Override
    public OptionalLong persistedEpoch() {
      return delegate.persistedEpoch();
    }

    @Override
    public void claimEpoch(Term term) {
      delegate.claimEpoch(term);
    }

    @Override
    public String location() {
      return delegate.location();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
