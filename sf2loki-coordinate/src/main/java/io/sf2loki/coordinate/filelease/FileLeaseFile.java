package io.sf2loki.coordinate.filelease;

import io.sf2loki.files.DurableFiles;
import io.sf2loki.files.FileMode;
import io.sf2loki.files.StrayFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * The lease document on a (shared) file system, written with the state file's protocol ({@link
 * DurableFiles}: a temp file in the same directory with the configured mode, fsync, rename over the
 * lease, fsync the directory).
 */
public final class FileLeaseFile implements FileLeaseStorage {

  private final Path path;
  private final FileMode mode;
  private final FileLeaseReader reader = new FileLeaseReader();

  /** A lease written 0600 (invariant 8). */
  public FileLeaseFile(Path path) {
    this(path, FileMode.OWNER_ONLY);
  }

  /** A lease written with {@code mode}, for replicas running under different UIDs. */
  public FileLeaseFile(Path path, FileMode mode) {
    this.path = Objects.requireNonNull(path, "path").toAbsolutePath();
    this.mode = Objects.requireNonNull(mode, "mode");
  }

  @Override
  public LeaseRead read() {
    return reader.read(path);
  }

  @Override
  public void write(FileLeaseDocument document) throws IOException {
    DurableFiles.replace(path, document.toJson(), mode);
  }

  @Override
  public void removeStrays(Instant olderThan, StrayFiles strays) {
    strays.removeTempFilesOf(path, olderThan);
  }

  @Override
  public String location() {
    return path.toString();
  }
}
