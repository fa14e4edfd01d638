package io.sf2loki.state.file;

import io.sf2loki.files.DurableFiles;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.IoFailures;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.spi.Ticker;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exclusive lock on {@code <state path>.lock}. {@code FileChannel} locks are POSIX record
 * locks: they exclude other processes, and inside one JVM an overlapping attempt throws {@link
 * OverlappingFileLockException}, which is treated like "held elsewhere".
 */
final class SidecarLock {

  private static final Logger LOG = LoggerFactory.getLogger(SidecarLock.class);
  private static final long POLL_NANOS = Duration.ofMillis(5).toNanos();

  /** Takes an OS lock on a channel: {@link FileChannel#tryLock()} outside tests. */
  @FunctionalInterface
  interface Locker {
    /**
     * @return the lock, or null when another process holds it
     * @throws IOException the file system does not support locks (NFS without lockd: ENOLCK)
     */
    FileLock tryLock(FileChannel channel) throws IOException;
  }

  private final Path statePath;
  private final Path lockPath;
  private final Locker locker;
  private final FileStoreIo io;
  private volatile boolean warnedUnsupported;

  /**
   * @param io runs each attempt and each release under the store's deadline, so a lock file on a
   *     hung mount fails a store call instead of blocking it
   */
  SidecarLock(Path statePath, Locker locker, FileStoreIo io) {
    this.statePath = statePath;
    this.lockPath = statePath.resolveSibling(statePath.getFileName() + ".lock");
    this.locker = locker;
    this.io = io;
  }

  Path path() {
    return lockPath;
  }

  /** A held lock; closing releases it. */
  interface Held extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Takes the lock without waiting, for the process lifetime (the {@code noop} coordinator).
   *
   * @return empty when the file system does not support locks (logged once)
   * @throws StoreLockedException another process or store holds it: permanent, since a lifetime
   *     lock is held by another sf2loki running on the same state, not by a moment's write
   */
  Optional<Held> acquireNow() {
    Attempt attempt = attempt();
    if (attempt.busy()) {
      throw new StoreLockedException(
          "state file "
              + statePath
              + " is locked by another process (lock file "
              + lockPath
              + "): is another sf2loki instance already running against this state?",
          null,
          FailureClass.permanent(
              "store_locked",
              statePath.toString(),
              "stop the other sf2loki instance, or give each instance its own state.file.path"));
    }
    return attempt.held();
  }

  /**
   * Waits up to {@code timeout} for the lock, around one read-modify-write.
   *
   * @return empty when the file system does not support locks (logged once)
   * @throws StoreLockedException still held after {@code timeout}: transient, since under a lease
   *     coordinator the lock is held only around a write (a frozen ex-leader's, a CLI's)
   */
  Optional<Held> acquireWithin(Duration timeout, Ticker ticker) {
    long deadline = ticker.nanoTime() + timeout.toNanos();
    while (true) {
      Attempt attempt = attempt();
      if (!attempt.busy()) {
        return attempt.held();
      }
      if (ticker.nanoTime() - deadline >= 0) {
        throw new StoreLockedException(
            "state file "
                + statePath
                + ": lock file "
                + lockPath
                + " stayed locked for "
                + timeout.toMillis()
                + " ms; another process (an sf2loki-cli --force write, or a daemon running under"
                + " coordinate.type = noop) keeps it",
            null,
            FailureClass.transientFailure("store_locked", statePath.toString()));
      }
      try {
        Thread.sleep(POLL_NANOS / 1_000_000L);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreUnavailableException("interrupted while waiting for " + lockPath, e);
      }
    }
  }

  /** One try: busy (held elsewhere), or the lock (empty when locks are unsupported). */
  private record Attempt(boolean busy, Optional<OsLock> lock) {
    static final Attempt BUSY = new Attempt(true, Optional.empty());

    Optional<Held> held() {
      return lock.map(l -> l::releaseBounded);
    }
  }

  /** One try under the deadline; a lock the try took after its caller gave up is released. */
  private Attempt attempt() {
    try {
      return io.bounded(
          "lock", lockPath, this::attemptNow, late -> late.lock().ifPresent(OsLock::release));
    } catch (IOException e) {
      throw new StoreUnavailableException("cannot lock " + lockPath + ": " + e, e);
    }
  }

  /** An OS lock and the channel it lives on. */
  private final class OsLock {
    private final FileChannel channel;
    private final FileLock lock;

    OsLock(FileChannel channel, FileLock lock) {
      this.channel = channel;
      this.lock = lock;
    }

    /**
     * Releases it on an I/O thread, waiting at most the deadline: on a hung mount the release
     * completes when the file system answers, and the caller goes on.
     */
    void releaseBounded() {
      io.cleanUp(
          "unlock",
          lockPath,
          () -> {
            release();
            return Boolean.TRUE;
          });
    }

    void release() {
      try (channel) {
        lock.release();
      } catch (IOException e) {
        LOG.warn("could not release lock file {}: {}", lockPath, e.toString());
      }
    }
  }

  @SuppressWarnings("resource") // the channel is owned by the returned lock
  private Attempt attemptNow() {
    FileChannel channel;
    try {
      Files.createDirectories(DurableFiles.directoryOf(statePath));
      channel =
          FileChannel.open(
              lockPath,
              StandardOpenOption.CREATE,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw StoreException.classified(
          "cannot open lock file " + lockPath + " of state file " + statePath + ": " + e,
          e,
          IoFailures.classify(e, "store", lockPath.toString(), "state.file.path"));
    }
    try {
      FileLock lock = locker.tryLock(channel);
      if (lock == null) {
        closeQuietly(channel);
        return Attempt.BUSY;
      }
      return new Attempt(false, Optional.of(new OsLock(channel, lock)));
    } catch (OverlappingFileLockException e) {
      closeQuietly(channel);
      return Attempt.BUSY;
    } catch (IOException e) {
      closeQuietly(channel);
      if (!warnedUnsupported) {
        warnedUnsupported = true;
        LOG.warn(
            "file system of {} does not support locks ({}); continuing without the sidecar lock",
            lockPath,
            e.toString());
      }
      return new Attempt(false, Optional.empty());
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("closing lock channel failed", e);
    }
  }
}
