package io.sf2loki.coordinate.filelease;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.UUID;

/**
 * The lease document on a (shared) file system, written like the state file: a 0600 temp file in
 * the same directory, fsync, rename over the lease, fsync the directory (invariant 8 for the mode).
 */
public final class FileLeaseFile implements FileLeaseStorage {

  private final Path path;
  private final FileLeaseReader reader = new FileLeaseReader();

  public FileLeaseFile(Path path) {
    this.path = Objects.requireNonNull(path, "path").toAbsolutePath();
  }

  @Override
  public LeaseRead read() {
    return reader.read(path);
  }

  @Override
  public void write(FileLeaseDocument document) throws IOException {
    Path dir = path.getParent();
    Path temp = dir.resolve("." + path.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      try (FileChannel ch =
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        restrictToOwner(temp);
        ByteBuffer buf = ByteBuffer.wrap(document.toJson());
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      try {
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
    syncDirectory(dir);
  }

  @Override
  public String location() {
    return path.toString();
  }

  private static void restrictToOwner(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system (e.g. SMB): its ACLs decide
    }
  }

  private static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (FileSystemException | UnsupportedOperationException e) {
      // some file systems refuse to open or sync a directory; the rename itself was atomic
    } catch (IOException e) {
      // same: durability of the rename is best effort where the platform offers no directory sync
    }
  }
}
