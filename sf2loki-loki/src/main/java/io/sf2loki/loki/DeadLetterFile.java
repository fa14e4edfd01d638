package io.sf2loki.loki;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.files.DurableFiles;
import io.sf2loki.model.LogEntry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.TreeMap;

/**
 * Appends permanently rejected entries as JSON lines, one object per entry: {@code time}, {@code
 * reason}, {@code status}, {@code error} (Loki's message, shortened), {@code labels}, {@code
 * timestamp} (nanoseconds as a string), {@code line}, {@code structured_metadata}. Created 0600: it
 * holds log data. Every record is fsynced before {@link #append} returns, so a dropped entry's only
 * copy survives a crash. When a record would take the file past {@code maxBytes} the file is first
 * rotated to {@code <path>.1} (replacing the previous one), so at most twice {@code maxBytes} is
 * kept; the file's {@link ReplayJournal} goes with it, so a replay of {@code <path>.1} still knows
 * what a replay of {@code <path>} pushed. Thread-safe.
 */
final class DeadLetterFile {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ERROR = 512;

  private final Path path;
  private final Path rotated;
  private final long maxBytes;
  private final Clock clock;

  DeadLetterFile(Path path, long maxBytes, Clock clock) {
    this.path = path;
    this.rotated = path.resolveSibling(path.getFileName() + ".1");
    this.maxBytes = maxBytes;
    this.clock = clock;
  }

  Path path() {
    return path;
  }

  /** Appends and fsyncs one record; the caller counts and logs an I/O failure. */
  synchronized void append(LogEntry e, String reason, int status, String error) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    n.put("time", clock.instant().toString());
    n.put("reason", reason);
    n.put("status", status);
    n.put("error", error.length() > MAX_ERROR ? error.substring(0, MAX_ERROR) : error);
    n.set("labels", JSON.valueToTree(new TreeMap<>(e.labels())));
    n.put("timestamp", Long.toString(e.timestampNanos()));
    n.put("line", e.line());
    n.set("structured_metadata", JSON.valueToTree(new TreeMap<>(e.metadata())));
    byte[] record = (JSON.writeValueAsString(n) + "\n").getBytes(StandardCharsets.UTF_8);
    rotateIfFull(record.length);
    createIfMissing();
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.APPEND)) {
      ByteBuffer buf = ByteBuffer.wrap(record);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(false);
    }
  }

  private void rotateIfFull(int incoming) throws IOException {
    long size;
    try {
      size = Files.size(path);
    } catch (NoSuchFileException e) {
      return;
    }
    if (size > 0 && size + incoming > maxBytes) {
      Files.move(
          path, rotated, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      Path journal = ReplayJournal.pathFor(path);
      Path rotatedJournal = ReplayJournal.pathFor(rotated);
      if (Files.exists(journal)) {
        Files.move(
            journal,
            rotatedJournal,
            StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } else {
        Files.deleteIfExists(rotatedJournal); // it described the rotated file just replaced
      }
      DurableFiles.syncDirectory(DurableFiles.directoryOf(path));
    }
  }

  /** The attributes that create a file 0600 where the file system has POSIX permissions. */
  static FileAttribute<?>[] ownerOnly() {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return new FileAttribute<?>[] {
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
      };
    }
    return new FileAttribute<?>[0];
  }

  private void createIfMissing() throws IOException {
    if (Files.exists(path)) {
      return;
    }
    Files.createFile(path, ownerOnly());
    DurableFiles.syncDirectory(DurableFiles.directoryOf(path));
  }
}
