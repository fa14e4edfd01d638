package io.sf2loki.state.file;

import io.sf2loki.config.Durations;
import io.sf2loki.files.FileMode;
import io.sf2loki.spi.ConfigSection;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The {@code state.file} section.
 *
 * @param path the checkpoint document
 * @param lockTimeout how long a write waits for the sidecar lock under a lease coordinator
 * @param mode the permissions the document is written with ({@code state.file.mode})
 * @param ioTimeout the deadline of each file-system call (read, write, lock): a call on a hung
 *     mount fails after it ({@code state.file.io_timeout})
 */
public record FileStoreConfig(Path path, Duration lockTimeout, Duration ioTimeout, FileMode mode) {

  /** Default location of the document. */
  public static final Path DEFAULT_PATH = Path.of("/var/lib/sf2loki/state.json");

  /** Default {@code state.file.lock_timeout}. */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);

  /** Default {@code state.file.io_timeout}. */
  public static final Duration DEFAULT_IO_TIMEOUT = Duration.ofSeconds(5);

  private static final Duration MAX_TIMEOUT = Duration.ofMinutes(5);

  public FileStoreConfig {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(lockTimeout, "lockTimeout");
    Objects.requireNonNull(ioTimeout, "ioTimeout");
    Objects.requireNonNull(mode, "mode");
  }

  /** A config with the default I/O deadline, written with the default mode, 0600. */
  public FileStoreConfig(Path path, Duration lockTimeout) {
    this(path, lockTimeout, DEFAULT_IO_TIMEOUT, FileMode.OWNER_ONLY);
  }

  /** A config written with the default mode, 0600. */
  public FileStoreConfig(Path path, Duration lockTimeout, Duration ioTimeout) {
    this(path, lockTimeout, ioTimeout, FileMode.OWNER_ONLY);
  }

  /** A config for {@code path} with the default lock timeout and I/O deadline. */
  public static FileStoreConfig of(Path path) {
    return new FileStoreConfig(path, DEFAULT_LOCK_TIMEOUT, DEFAULT_IO_TIMEOUT);
  }

  /** Binds {@code state.file}, recording every problem on {@code r}. */
  public static FileStoreConfig bind(ConfigSection r) {
    Path path = DEFAULT_PATH;
    String raw = r.requiredString("path");
    if (!raw.isEmpty()) {
      try {
        path = Path.of(raw);
        if (path.getFileName() == null || raw.endsWith("/")) {
          r.problem("path", r.path("path") + " (" + raw + ") must name a file, not a directory");
        }
      } catch (InvalidPathException e) {
        r.problem("path", r.path("path") + " (" + raw + ") is not a valid path: " + e.getReason());
      }
    }
    Duration lockTimeout = atMostFiveMinutes(r, "lock_timeout");
    Duration ioTimeout = atMostFiveMinutes(r, "io_timeout");
    return new FileStoreConfig(path, lockTimeout, ioTimeout, FileMode.bind(r, "mode"));
  }

  private static Duration atMostFiveMinutes(ConfigSection r, String key) {
    Duration value = r.positiveDuration(key);
    if (value.compareTo(MAX_TIMEOUT) > 0) {
      r.problem(key, r.path(key) + " (" + Durations.format(value) + ") must be at most 5m");
    }
    return value;
  }
}
