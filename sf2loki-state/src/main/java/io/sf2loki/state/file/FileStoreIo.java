package io.sf2loki.state.file;

import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.deadline.IoCall;
import io.sf2loki.deadline.IoTimeoutException;
import io.sf2loki.files.FileMode;
import io.sf2loki.spi.StoreTimeoutException;
import io.sf2loki.spi.StoreUnavailableException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Every file-system call of one file store — read, write, lock, unlock, stray clean-up — under
 * {@code state.file.io_timeout}, on the store's own {@link BlockingIo} pool of {@value #THREADS}
 * threads: on a hung mount a store call fails with {@link StoreTimeoutException} (transient) naming
 * the path and the deadline, instead of blocking its caller (a lane, the epoch claim of a new term,
 * the coordinator reading the epoch floor) for ever. A caller interrupted while waiting (the end of
 * a drain's grace) fails at once with {@link StoreUnavailableException}, its interrupt flag
 * restored.
 */
final class FileStoreIo implements AutoCloseable {

  /** One call in flight (the store is serialised), plus one more while one hangs. */
  static final int THREADS = 2;

  private final StateFiles files;
  private final Duration timeout;
  private final BlockingIo io;

  FileStoreIo(StateFiles files, Duration timeout, BlockingIo io) {
    this.files = Objects.requireNonNull(files, "files");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.io = Objects.requireNonNull(io, "io");
  }

  /** The whole file; {@link java.nio.file.NoSuchFileException} when it does not exist. */
  byte[] read(Path path) throws IOException {
    return bounded("read", path, () -> files.read(path));
  }

  /** Replaces the file atomically. */
  void replace(Path path, byte[] bytes, FileMode mode) throws IOException {
    bounded(
        "write",
        path,
        () -> {
          files.replace(path, bytes, mode);
          return Boolean.TRUE;
        });
  }

  /** Runs {@code call} under the deadline. */
  <T> T bounded(String operation, Path path, IoCall<T> call) throws IOException {
    return bounded(operation, path, call, late -> {});
  }

  /**
   * Runs {@code call} under the deadline; {@code late} gets what it returns should it finish after
   * its caller gave up (a lock to release).
   *
   * @throws StoreTimeoutException the deadline passed, or every I/O thread is stuck
   * @throws StoreUnavailableException the caller was interrupted while waiting
   * @throws IOException what {@code call} threw
   */
  <T> T bounded(String operation, Path path, IoCall<T> call, Consumer<? super T> late)
      throws IOException {
    try {
      return io.call(operation, path, timeout, call, late);
    } catch (IoTimeoutException e) {
      throw new StoreTimeoutException(
          "state file " + e.getMessage() + " (deadline: state.file.io_timeout)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException(
          "interrupted while waiting for the " + operation + " of state file " + path, e);
    }
  }

  /** Runs a clean-up (an unlock) that must happen even on a hung mount; see {@link BlockingIo}. */
  <T> void cleanUp(String operation, Path path, IoCall<T> call) {
    io.cleanUp(operation, path, timeout, call);
  }

  @Override
  public void close() {
    io.close();
  }
}
