package io.sf2loki.coordinate.filelease;

import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.deadline.IoTimeoutException;
import io.sf2loki.files.StrayFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lease storage whose every read and write runs under {@code coordinate.file_lease.io_timeout},
 * on a bounded {@link BlockingIo} pool shared by every coordinator of the lease: on a hung mount a
 * read is {@link LeaseRead.Unknown} and a write fails with {@link IoTimeoutException} after the
 * deadline, instead of blocking the coordinator's thread (and with it the renewals) for ever.
 */
public final class DeadlineLeaseStorage implements FileLeaseStorage {

  private static final Logger LOG = LoggerFactory.getLogger(DeadlineLeaseStorage.class);

  /** A renewal's read or write, plus one more while one hangs. */
  public static final int THREADS = 2;

  private final FileLeaseStorage delegate;
  private final BlockingIo io;
  private final Duration timeout;
  private final Path path;

  /**
   * @param delegate the storage whose calls may hang
   * @param io the pool the calls run on; the lease's own, never shared with the state store, so a
   *     store call stuck on the same mount cannot take a thread a renewal needs
   * @param timeout the deadline of each call
   */
  public DeadlineLeaseStorage(FileLeaseStorage delegate, BlockingIo io, Duration timeout) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.io = Objects.requireNonNull(io, "io");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.path = Path.of(delegate.location());
  }

  /** Reads under the deadline; a read that misses it, or is interrupted, is unknown. */
  @Override
  public LeaseRead read() {
    try {
      return io.call("read", path, timeout, delegate::read);
    } catch (IOException e) {
      return new LeaseRead.Unknown(
          e.getMessage() + " (deadline: coordinate.file_lease.io_timeout)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new LeaseRead.Unknown("interrupted while reading " + path);
    }
  }

  @Override
  public void write(FileLeaseDocument document) throws IOException {
    try {
      io.call(
          "write",
          path,
          timeout,
          () -> {
            delegate.write(document);
            return Boolean.TRUE;
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while writing " + path);
    }
  }

  /**
   * Removes a crashed writer's temp files under the deadline too; a clean-up that misses it is
   * given up (the files stay for the next start) rather than blocking the campaign.
   */
  @Override
  public void removeStrays(Instant olderThan, StrayFiles strays) {
    try {
      io.call(
          "cleanup",
          path,
          timeout,
          () -> {
            delegate.removeStrays(olderThan, strays);
            return Boolean.TRUE;
          });
    } catch (IOException e) {
      LOG.warn("stray lease temp files next to {} not removed: {}", path, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String location() {
    return delegate.location();
  }
}
