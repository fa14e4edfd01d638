package io.sf2loki.state.file;

import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.files.StrayFiles;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.IoFailures;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.StoreTimeoutException;
import io.sf2loki.spi.Term;
import io.sf2loki.spi.Ticker;
import io.sf2loki.state.internal.Mutation;
import io.sf2loki.state.internal.StateDocument;
import io.sf2loki.state.internal.StoreMetrics;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints in a local JSON file.
 *
 * <p>Every read is fresh from disk; every commit or delete re-reads the file, applies the fencing
 * rules and merges only its own keys into what it read, then writes once with {@link DurableFiles}.
 *
 * <p>Locking ({@code <path>.lock}): when {@link StoreEnvironment#singleInstance()} is true (the
 * {@code noop} coordinator) the store takes the lock on its first operation and keeps it until
 * {@link #close()}, so a second instance fails at startup. Otherwise the coordinator provides
 * exclusivity and the lock is only held around each read-merge-write, so that a concurrent {@code
 * sf2loki-cli --force} write on the same host is never lost and a demoted process never blocks the
 * promoted one.
 *
 * <p>Deadlines: every file-system call (read, write, lock, unlock) runs under {@link
 * FileStoreConfig#ioTimeout()} ({@link FileStoreIo}), so a hung mount fails a store call with a
 * {@link StoreTimeoutException} instead of blocking its caller.
 *
 * <p>Thread-safe: operations are serialised on the store.
 */
public final class FileCheckpointStore implements CheckpointStore, EpochFloor, EpochClaim {

  private static final Logger LOG = LoggerFactory.getLogger(FileCheckpointStore.class);

  private final FileStoreConfig config;
  private final boolean singleInstance;
  private final Ticker ticker;
  private final StoreMetrics metrics;
  private final FileStoreIo io;
  private final SidecarLock lock;
  private final StrayFiles strays;
  private Optional<SidecarLock.Held> lifetimeLock;
  private boolean straysCleaned;
  private boolean warnedUnlockedClaim;
  private boolean closed;

  /** Creates the store without touching the file system. */
  public FileCheckpointStore(FileStoreConfig config, StoreEnvironment environment, Ticker ticker) {
    this(config, environment, ticker, FileChannel::tryLock);
  }

  FileCheckpointStore(
      FileStoreConfig config,
      StoreEnvironment environment,
      Ticker ticker,
      SidecarLock.Locker locker) {
    this(config, environment, ticker, locker, StateFiles.LOCAL);
  }

  /**
   * @param files the file-system calls (tests make them hang)
   */
  FileCheckpointStore(
      FileStoreConfig config,
      StoreEnvironment environment,
      Ticker ticker,
      SidecarLock.Locker locker,
      StateFiles files) {
    this.config = Objects.requireNonNull(config, "config");
    this.singleInstance = environment.singleInstance();
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.metrics = new StoreMetrics(environment.metrics(), "file");
    BlockingIo pool =
        new BlockingIo("state", FileStoreIo.THREADS, environment.threads(), environment.metrics());
    this.io = new FileStoreIo(files, config.ioTimeout(), pool);
    this.lock = new SidecarLock(config.path(), locker, io);
    this.strays = new StrayFiles(environment.metrics(), "state");
  }

  @Override
  public String location() {
    return config.path().toString();
  }

  /** The sidecar lock file. */
  public Path lockPath() {
    return lock.path();
  }

  @Override
  public synchronized Map<String, String> loadAll() {
    ensureOpen();
    holdLifetimeLock();
    return read();
  }

  @Override
  public Optional<String> load(String key) {
    return Optional.ofNullable(loadAll().get(key));
  }

  @Override
  public synchronized OptionalLong persistedEpoch() {
    ensureOpen();
    holdLifetimeLock();
    return StateDocument.epoch(read(), location());
  }

  @Override
  public void commit(Map<String, String> updates, Fence fence) {
    apply(Mutation.commit(updates, fence));
  }

  @Override
  public void delete(Set<String> keys, Fence fence) {
    apply(Mutation.delete(keys, fence));
  }

  @Override
  public void claimEpoch(Term term) {
    apply(Mutation.claim(term));
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (lifetimeLock != null) {
      lifetimeLock.ifPresent(SidecarLock.Held::close);
      lifetimeLock = null;
    }
    io.close();
  }

  private void apply(Mutation mutation) {
    metrics.write(
        () -> {
          synchronized (this) {
            ensureOpen();
            Mutation.requireCurrent(mutation.fence(), location()); // before any I/O
            if (singleInstance) {
              holdLifetimeLock();
              readMergeWrite(mutation);
            } else {
              Optional<SidecarLock.Held> held = lock.acquireWithin(config.lockTimeout(), ticker);
              try {
                cleanStraysOnce(held.isPresent());
                readMergeWrite(held.isPresent() ? mutation : withoutLock(mutation));
              } finally {
                held.ifPresent(SidecarLock.Held::close);
              }
            }
            return null;
          }
        });
  }

  /**
   * Without a lock (a file system that refuses them, e.g. NFS without lockd) nothing here is a
   * compare-and-set, so a claim cannot promise to be the only one of its epoch. Refusing it would
   * keep the daemon from ever leading on such a mount, where it ran before; it is degraded to the
   * plain epoch stamp instead (raise when higher, never refuse an equal epoch), and said once.
   */
  private Mutation withoutLock(Mutation mutation) {
    if (!(mutation instanceof Mutation.Claim claim)) {
      return mutation;
    }
    if (!warnedUnlockedClaim) {
      warnedUnlockedClaim = true;
      LOG.warn(
          "the file system of {} does not support locks: the epoch claim at acquire is not atomic"
              + " here, so if the lease is deleted while being taken two replicas may run one"
              + " epoch until the next renewal; use a file system with working locks (or s3/gcs)"
              + " for HA",
          location());
    }
    return Mutation.commit(Map.of(), claim.fence());
  }

  private void readMergeWrite(Mutation mutation) {
    Optional<Map<String, String>> next = mutation.applyTo(read(), location());
    if (next.isEmpty()) {
      return;
    }
    try {
      io.replace(config.path(), StateDocument.serialize(next.get()), config.mode());
    } catch (IOException e) {
      throw ioFailure("cannot write state file " + location() + " (" + mutation.verb() + ")", e);
    }
  }

  private Map<String, String> read() {
    byte[] bytes;
    try {
      bytes = io.read(config.path());
    } catch (NoSuchFileException e) {
      return Map.of();
    } catch (IOException e) {
      throw ioFailure("cannot read state file " + location(), e);
    }
    return StateDocument.parse(bytes, location(), recovery());
  }

  /** EACCES, EROFS, ENOTDIR and ENOSPC are permanent; other I/O errors transient. */
  private StoreException ioFailure(String what, IOException e) {
    return StoreException.classified(
        what + ": " + e, e, IoFailures.classify(e, "store", location(), "state.file.path"));
  }

  private String recovery() {
    return "The file was left untouched. Stop sf2loki, move it aside (mv "
        + location()
        + " "
        + location()
        + ".corrupt) and start again: sources resume from their configured lookback; or, after"
        + " moving it aside, restore a saved copy with `sf2loki-cli state import --force FILE`";
  }

  private void holdLifetimeLock() {
    if (!singleInstance || lifetimeLock != null) {
      return;
    }
    lifetimeLock = lock.acquireNow();
    cleanStraysOnce(lifetimeLock.isPresent());
  }

  private void cleanStraysOnce(boolean locked) {
    if (straysCleaned || !locked) {
      return; // without the lock a temp file may belong to a live writer
    }
    straysCleaned = true;
    try {
      io.bounded(
          "cleanup", config.path(), () -> strays.removeTempFilesOf(config.path(), Instant.MAX));
    } catch (IOException | StoreTimeoutException e) {
      LOG.warn("could not clean stray temp files next to {}: {}", location(), e.toString());
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("checkpoint store " + location() + " is closed");
    }
  }
}
