package io.sf2loki.source.eventlogfile;

import io.sf2loki.files.StrayFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A downloaded body: the first {@code memoryLimit} bytes in memory, the rest in a temporary file
 * (created 0600, deleted on {@link #close()}). Memory stays bounded whatever the file size, and the
 * whole body is received before the first row is emitted, so a broken download emits nothing.
 */
final class Spool implements Closeable {

  private static final String PREFIX = "sf2loki-elf-";
  private static final String SUFFIX = ".csv";

  private final byte[] head;
  private final Optional<Path> file;
  private final long size;

  private Spool(byte[] head, Optional<Path> file, long size) {
    this.head = head;
    this.file = file;
    this.size = size;
  }

  /** A spooled download left by a crashed process is this old before it is removed at start. */
  static final Duration STRAY_AGE = Duration.ofHours(1);

  /**
   * Removes the spool files ({@code sf2loki-elf-*.csv}) in {@code dir} (the JVM's temporary
   * directory when empty) last written before {@code now - }{@link #STRAY_AGE}: a crash skips
   * {@link #close()}. A live process's spool is written while it downloads and then only read from
   * an open stream, so an hour-old one left by a backfill sharing the directory is safe to unlink
   * too.
   */
  static void removeStrays(Optional<Path> dir, Instant now, StrayFiles strays) {
    Path directory = dir.orElseGet(() -> Path.of(System.getProperty("java.io.tmpdir")));
    strays.removeMatching(directory, PREFIX + "*" + SUFFIX, now.minus(STRAY_AGE));
  }

  /** Reads {@code in} to its end. An {@link IOException} leaves no file behind. */
  static Spool fill(InputStream in, long memoryLimit, Optional<Path> dir) throws IOException {
    long limit = Math.min(Integer.MAX_VALUE - 8L, memoryLimit);
    ByteArrayOutputStream memory = new ByteArrayOutputStream((int) Math.min(limit, 64 * 1024));
    byte[] buf = new byte[64 * 1024];
    while (true) {
      int n = in.read(buf);
      if (n < 0) {
        return new Spool(memory.toByteArray(), Optional.empty(), memory.size());
      }
      if (memory.size() + (long) n > limit) {
        return spill(in, memory, buf, n, dir);
      }
      memory.write(buf, 0, n);
    }
  }

  private static Spool spill(
      InputStream in, ByteArrayOutputStream memory, byte[] pending, int n, Optional<Path> dir)
      throws IOException {
    Path path =
        dir.isPresent()
            ? Files.createTempFile(dir.get(), PREFIX, SUFFIX)
            : Files.createTempFile(PREFIX, SUFFIX);
    try (OutputStream out = Files.newOutputStream(path)) {
      memory.writeTo(out);
      out.write(pending, 0, n);
      long size = memory.size() + (long) n + in.transferTo(out);
      return new Spool(new byte[0], Optional.of(path), size);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(path);
      throw e;
    }
  }

  /** The body from its start. */
  InputStream open() throws IOException {
    return file.isPresent() ? Files.newInputStream(file.get()) : new ByteArrayInputStream(head);
  }

  /** Total bytes received. */
  long size() {
    return size;
  }

  /** Whether the body spilled to a temporary file. */
  boolean onDisk() {
    return file.isPresent();
  }

  /** Bytes held in memory. */
  int memoryBytes() {
    return head.length;
  }

  @Override
  public void close() throws IOException {
    if (file.isPresent()) {
      Files.deleteIfExists(file.get());
    }
  }
}
