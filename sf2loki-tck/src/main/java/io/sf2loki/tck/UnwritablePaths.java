package io.sf2loki.tck;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * Paths a store or a lease cannot be written at, for the tests of permanent failures: one under a
 * directory this process may not write (EACCES), one whose parent is a regular file (ENOTDIR).
 */
public final class UnwritablePaths {

  private UnwritablePaths() {}

  /**
   * {@code name} in a directory this process may not create files in: {@code dir/locked} made
   * read-only, or, for root (whom modes do not stop), {@code /sys/kernel}, where sysfs refuses new
   * files to everyone with EACCES. Aborts the test where neither refuses.
   */
  public static Path inUnwritableDirectory(Path dir, String name) throws IOException {
    Path locked = Files.createDirectories(dir.resolve("locked"));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
    if (refusesNewFiles(locked)) {
      return locked.resolve(name);
    }
    Path sysfs = Path.of("/sys/kernel");
    Assumptions.assumeTrue(
        Files.isDirectory(sysfs) && refusesNewFiles(sysfs),
        "no directory refuses this process new files");
    return sysfs.resolve("sf2loki-test-" + UUID.randomUUID() + "-" + name);
  }

  /** {@code name} under {@code dir/file}, a regular file: every access fails with ENOTDIR. */
  public static Path underARegularFile(Path dir, String name) throws IOException {
    Path file = dir.resolve("file");
    Files.writeString(file, "not a directory");
    return file.resolve(name);
  }

  private static boolean refusesNewFiles(Path dir) {
    Path probe = dir.resolve(".sf2loki-probe-" + UUID.randomUUID());
    try {
      Files.createFile(probe);
      Files.delete(probe);
      return false;
    } catch (AccessDeniedException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
