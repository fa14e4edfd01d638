package io.sf2loki.coordinate.filelease;

import io.sf2loki.config.DocumentNames;
import io.sf2loki.coordinate.balance.Roster;
import io.sf2loki.coordinate.balance.RosterDocument;
import io.sf2loki.coordinate.balance.RosterException;
import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.files.DurableFiles;
import io.sf2loki.files.FileMode;
import io.sf2loki.spi.RosterInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The roster of a {@code file_lease} deployment of several orgs: {@code <stem>-roster<suffix>}
 * beside the leases ({@code leader.lease → leader-roster.lease}), written like a lease file ({@link
 * DurableFiles}: temp file with the lease's mode, fsync, rename, fsync the directory), every call
 * under {@code io_timeout} on the roster's own {@link BlockingIo} pool.
 *
 * <p>There is no compare-and-swap on a file: two replicas heartbeating in the same few milliseconds
 * may overwrite each other's refresh. That never drops a member (the lost write only refreshed an
 * entry that still lives a ttl minus one renew interval) except a replica's very first heartbeat,
 * which its next one repeats.
 */
public final class FileLeaseRoster implements Roster {

  private final Path path;
  private final FileMode mode;
  private final BlockingIo io;
  private final Duration timeout;

  /**
   * @param leasePath the configured (top-level) {@code coordinate.file_lease.path}
   * @param mode the lease files' mode
   * @param io the roster's I/O pool
   * @param timeout {@code io_timeout}
   */
  public FileLeaseRoster(Path leasePath, FileMode mode, BlockingIo io, Duration timeout) {
    this.path = pathFor(leasePath);
    this.mode = Objects.requireNonNull(mode, "mode");
    this.io = Objects.requireNonNull(io, "io");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** {@code dir/leader.lease → dir/leader-roster.lease}. */
  public static Path pathFor(Path leasePath) {
    return Path.of(DocumentNames.suffixed(leasePath.toAbsolutePath().toString(), "-roster"));
  }

  /**
   * One direct read of the roster beside {@code leasePath}, for {@code lease show}; never throws.
   */
  public static RosterInfo inspect(Path leasePath) {
    Path path = pathFor(leasePath);
    try {
      byte[] bytes = Files.readAllBytes(path);
      return new RosterInfo(
          path.toString(),
          RosterDocument.parse(bytes, path.toString()).members(),
          Optional.empty());
    } catch (NoSuchFileException e) {
      return new RosterInfo(path.toString(), Map.of(), Optional.of("absent"));
    } catch (IOException e) {
      return new RosterInfo(path.toString(), Map.of(), Optional.of("cannot read: " + e));
    } catch (RosterException e) {
      return new RosterInfo(path.toString(), Map.of(), Optional.of(e.getMessage()));
    }
  }

  @Override
  public RosterDocument read() throws RosterException {
    Optional<byte[]> bytes = call("read", this::readBytes);
    return bytes.isEmpty() ? RosterDocument.EMPTY : RosterDocument.parse(bytes.get(), location());
  }

  @Override
  public RosterDocument heartbeat(String replica, Instant expiresAt, Instant now)
      throws RosterException {
    RosterException corrupt = null;
    RosterDocument current;
    try {
      current = read();
    } catch (RosterException e) {
      if (!e.corrupt()) {
        throw e;
      }
      corrupt = e;
      current = RosterDocument.EMPTY;
    }
    RosterDocument next = current.live(now).with(replica, expiresAt);
    write(next);
    if (corrupt != null) {
      throw new RosterException(
          location(), corrupt.getMessage() + "; rewritten with this replica only", true, corrupt);
    }
    return next;
  }

  @Override
  public void leave(String replica, Instant now) throws RosterException {
    RosterDocument current = read();
    if (current.members().containsKey(replica)) {
      write(current.live(now).without(replica));
    }
  }

  @Override
  public String location() {
    return path.toString();
  }

  private void write(RosterDocument document) throws RosterException {
    byte[] bytes = document.toJson().getBytes(StandardCharsets.UTF_8);
    call(
        "write",
        () -> {
          DurableFiles.replace(path, bytes, mode);
          return Boolean.TRUE;
        });
  }

  private Optional<byte[]> readBytes() throws IOException {
    try {
      return Optional.of(Files.readAllBytes(path));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private <T> T call(String operation, io.sf2loki.deadline.IoCall<T> call) throws RosterException {
    try {
      return io.call(operation, path, timeout, call);
    } catch (IOException e) {
      throw new RosterException(location(), "cannot " + operation + ": " + e, false, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RosterException(location(), "interrupted during " + operation, false, e);
    }
  }
}
