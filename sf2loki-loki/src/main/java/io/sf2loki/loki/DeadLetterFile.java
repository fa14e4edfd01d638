package io.sf2loki.loki;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.model.LogEntry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.TreeMap;

/**
 * Appends permanently rejected entries as JSON lines, one object per entry: {@code time}, {@code
 * reason}, {@code status}, {@code error} (Loki's message, shortened), {@code labels}, {@code
 * timestamp} (nanoseconds as a string), {@code line}, {@code structured_metadata}. Created 0600: it
 * holds log data. Thread-safe.
 */
final class DeadLetterFile {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ERROR = 512;

  private final Path path;
  private final Clock clock;

  DeadLetterFile(Path path, Clock clock) {
    this.path = path;
    this.clock = clock;
  }

  Path path() {
    return path;
  }

  /** Appends one record; the caller decides what an I/O failure means. */
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
    createIfMissing();
    try (OutputStream out =
        Files.newOutputStream(path, StandardOpenOption.APPEND, StandardOpenOption.WRITE)) {
      out.write((JSON.writeValueAsString(n) + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  private void createIfMissing() throws IOException {
    if (Files.exists(path)) {
      return;
    }
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      Files.createFile(
          path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } else {
      Files.createFile(path);
    }
  }
}
