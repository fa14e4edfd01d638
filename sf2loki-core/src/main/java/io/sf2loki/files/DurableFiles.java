package io.sf2loki.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crash-safe write protocol of every durable local file (the state file, the file lease):
 * create a temp file {@code .<name>.<random>.tmp} in the same directory with the configured {@link
 * FileMode} (regardless of the umask), write, fsync it, rename it atomically over the target, fsync
 * the directory. A crash at any point leaves the old or the new complete document, plus at worst a
 * stray temp file that {@link #removeStrays} finds.
 *
 * <p><b>Directory-fsync policy</b> (one for all): the directory is opened and forced after every
 * rename. A file system that cannot open or sync a directory at all (some network and FUSE file
 * systems answer with a file-system error or do not support it) is logged once per directory and
 * skipped: the rename itself was atomic, only its durability across a power loss is the platform's.
 * Any other I/O error while syncing (EIO) fails the write, so the caller sees it.
 */
public final class DurableFiles {

  private static final Logger LOG = LoggerFactory.getLogger(DurableFiles.class);
  private static final Set<Path> UNSYNCABLE = ConcurrentHashMap.newKeySet();

  private DurableFiles() {}

  /**
   * Replaces {@code target} with {@code bytes} atomically and durably, creating its directory when
   * missing. On failure the temp file is removed and the target is untouched.
   */
  public static void replace(Path target, byte[] bytes, FileMode mode) throws IOException {
    Path dir = directoryOf(target);
    Files.createDirectories(dir);
    Path tmp = createTemp(dir, target, mode);
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
    syncDirectory(dir);
  }

  /**
   * Forces {@code dir}'s entries (a rename, a new file) to disk, under the policy in the class
   * comment.
   *
   * @throws IOException an I/O error while syncing a directory that can be synced
   */
  public static void syncDirectory(Path dir) throws IOException {
    Path key = dir.toAbsolutePath();
    try (FileChannel ch = FileChannel.open(key, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (FileSystemException | UnsupportedOperationException e) {
      if (UNSYNCABLE.add(key)) {
        LOG.warn(
            "the file system of {} cannot sync a directory ({}); renames there are atomic but their"
                + " durability across a power loss is the platform's",
            key,
            e.toString());
      }
    }
  }

  /**
   * Removes the temp files a crashed writer left next to {@code target} ({@code .<name>.*.tmp}),
   * keeping those modified at or after {@code olderThan}: pass {@link Instant#MAX} only while
   * holding a lock that excludes every live writer, otherwise a time far enough back that no live
   * writer can still be writing one.
   *
   * @return the files removed
   */
  public static List<Path> removeStrays(Path target, Instant olderThan) throws IOException {
    return removeMatching(directoryOf(target), tempPrefix(target) + "*.tmp", olderThan);
  }

  /**
   * Removes the files in {@code dir} matching {@code glob} last modified before {@code olderThan}
   * ({@link Instant#MAX}: all of them). A missing directory has none.
   *
   * @return the files removed
   */
  public static List<Path> removeMatching(Path dir, String glob, Instant olderThan)
      throws IOException {
    List<Path> removed = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return removed;
    }
    try (DirectoryStream<Path> strays = Files.newDirectoryStream(dir, glob)) {
      for (Path stray : strays) {
        if (modifiedBefore(stray, olderThan) && Files.deleteIfExists(stray)) {
          removed.add(stray);
        }
      }
    }
    return removed;
  }

  /** The absolute directory holding {@code target}. */
  public static Path directoryOf(Path target) {
    Path parent = target.toAbsolutePath().getParent();
    return parent == null ? target.toAbsolutePath().getRoot() : parent;
  }

  private static boolean modifiedBefore(Path file, Instant instant) throws IOException {
    if (instant.equals(Instant.MAX)) {
      return true;
    }
    try {
      return Files.getLastModifiedTime(file).toInstant().isBefore(instant);
    } catch (NoSuchFileException e) {
      return false; // renamed by its writer meanwhile
    }
  }

  private static String tempPrefix(Path target) {
    return "." + target.getFileName() + ".";
  }

  private static Path createTemp(Path dir, Path target, FileMode mode) throws IOException {
    if (!Files.getFileStore(dir).supportsFileAttributeView("posix")) {
      return Files.createTempFile(dir, tempPrefix(target), ".tmp"); // its ACLs decide
    }
    Path tmp = Files.createTempFile(dir, tempPrefix(target), ".tmp");
    try {
      Files.setPosixFilePermissions(tmp, mode.permissions()); // whatever the umask
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    return tmp;
  }
}
