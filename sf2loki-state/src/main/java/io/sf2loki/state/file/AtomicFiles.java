package io.sf2loki.state.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The crash-safe write protocol: temp file (0600, same directory) → write → fsync → atomic rename →
 * fsync of the directory. A crash at any point leaves either the old or the new complete document
 * plus, at worst, a stray temp file that {@link #cleanStrays} removes.
 */
final class AtomicFiles {

  private static final Set<PosixFilePermission> OWNER_RW =
      PosixFilePermissions.fromString("rw-------");

  private AtomicFiles() {}

  /** Replaces {@code target} with {@code bytes} atomically and durably. */
  static void write(Path target, byte[] bytes) throws IOException {
    Path dir = directoryOf(target);
    Files.createDirectories(dir);
    Path tmp = createTemp(dir, target);
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    fsyncDirectory(dir);
  }

  /**
   * Deletes temp files a crashed writer left next to {@code target}. Call only while holding the
   * sidecar lock, so that no live writer's temp file is taken for a stray one.
   *
   * @return the files removed
   */
  static List<Path> cleanStrays(Path target) throws IOException {
    Path dir = directoryOf(target);
    List<Path> removed = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return removed;
    }
    String glob = tempPrefix(target) + "*.tmp";
    try (DirectoryStream<Path> strays = Files.newDirectoryStream(dir, glob)) {
      for (Path stray : strays) {
        if (Files.deleteIfExists(stray)) {
          removed.add(stray);
        }
      }
    }
    return removed;
  }

  static Path directoryOf(Path target) {
    Path parent = target.toAbsolutePath().getParent();
    return parent == null ? target.toAbsolutePath().getRoot() : parent;
  }

  private static String tempPrefix(Path target) {
    return "." + target.getFileName() + ".";
  }

  private static Path createTemp(Path dir, Path target) throws IOException {
    boolean posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
    if (!posix) {
      return Files.createTempFile(dir, tempPrefix(target), ".tmp");
    }
    FileAttribute<Set<PosixFilePermission>> attr = PosixFilePermissions.asFileAttribute(OWNER_RW);
    Path tmp = Files.createTempFile(dir, tempPrefix(target), ".tmp", attr);
    Files.setPosixFilePermissions(tmp, OWNER_RW); // invariant 8: 0600 whatever the umask
    return tmp;
  }

  private static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
