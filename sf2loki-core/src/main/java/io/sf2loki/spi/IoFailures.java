package io.sf2loki.spi;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.Locale;
import java.util.Optional;

/**
 * Classifies file-system failures, the same way for the state file, the file lease and anything
 * else on a path: EACCES and EPERM ({@code access_denied}), EROFS ({@code read_only}), ENOTDIR and
 * a directory to create that exists as a file ({@code not_a_directory}: {@link
 * java.nio.file.Files#createDirectories} throws {@link FileAlreadyExistsException} then), ENOSPC
 * and EDQUOT ({@code disk_full}) are permanent; any other I/O error (EIO, a stale NFS handle, a
 * timeout) is transient ({@code unavailable}). The reasons are prefixed with the part that failed
 * ({@code store_read_only}, {@code lease_access_denied}).
 *
 * <p>The JDK reports errno as {@link FileSystemException#getReason()} (the C library's text, e.g.
 * {@code Read-only file system}) or, for channel writes, as the message of a plain {@link
 * IOException}; both are read.
 */
public final class IoFailures {

  private IoFailures() {}

  /**
   * The class of {@code failure} (or of the first I/O failure in its cause chain).
   *
   * @param component the part that failed, the reason's prefix: {@code store}, {@code lease}
   * @param resource the configured path, named when the exception names no file of its own
   * @param key the configuration key of that path, for the fix ({@code state.file.path})
   */
  public static FailureClass classify(
      Throwable failure, String component, String resource, String key) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      Optional<FailureClass> known = classifyOne(t, component, resource, key);
      if (known.isPresent()) {
        return known.get();
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return FailureClass.transientFailure(component + "_unavailable", resource);
  }

  private static Optional<FailureClass> classifyOne(
      Throwable t, String component, String resource, String key) {
    String where = resource;
    if (t instanceof FileSystemException fs && fs.getFile() != null) {
      where = fs.getFile();
    }
    String cause = cause(t);
    if (cause == null) {
      return Optional.empty();
    }
    String fix =
        switch (cause) {
          case "access_denied" ->
              "let the user sf2loki runs as read and write "
                  + where
                  + " and its directory, or set "
                  + key
                  + " to a path it may write";
          case "read_only" ->
              where
                  + " is on a read-only file system: mount it read-write, or set "
                  + key
                  + " to a writable path";
          case "not_a_directory" ->
              "a parent of " + where + " is a file, not a directory: fix " + key;
          default -> "free space (or raise the quota) on the file system of " + where;
        };
    return Optional.of(FailureClass.permanent(component + "_" + cause, where, fix));
  }

  /** The permanent cause {@code t} reports, or null when it is none of them. */
  private static String cause(Throwable t) {
    if (t instanceof AccessDeniedException) {
      return "access_denied";
    }
    if (t instanceof ReadOnlyFileSystemException) {
      return "read_only";
    }
    if (t instanceof NotDirectoryException || t instanceof FileAlreadyExistsException) {
      return "not_a_directory"; // Files.createDirectories: the directory to create is a file
    }
    if (!(t instanceof IOException)) {
      return null;
    }
    String text =
        t instanceof FileSystemException fs && fs.getReason() != null
            ? fs.getReason()
            : String.valueOf(t.getMessage());
    text = text.toLowerCase(Locale.ROOT);
    if (text.contains("read-only file system")) {
      return "read_only";
    }
    if (text.contains("permission denied") || text.contains("operation not permitted")) {
      return "access_denied";
    }
    if (text.contains("not a directory")) {
      return "not_a_directory";
    }
    if (text.contains("no space left on device") || text.contains("disk quota exceeded")) {
      return "disk_full";
    }
    return null;
  }
}
