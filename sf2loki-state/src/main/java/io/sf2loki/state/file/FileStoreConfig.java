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
 */
public record FileStoreConfig(Path path, Duration lockTimeout, FileMode mode) {

  /** Default location of the document. */
  public static final Path DEFAULT_PATH = Path.of("/var/lib/sf2loki/state.json");

  public FileStoreConfig {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(lockTimeout, "lockTimeout");
    Objects.requireNonNull(mode, "mode");
  }

  /** A config written with the default mode, 0600. */
  public FileStoreConfig(Path path, Duration lockTimeout) {
    this(path, lockTimeout, FileMode.OWNER_ONLY);
  }

  /** A config for {@code path} with the default lock timeout. */
  public static FileStoreConfig of(Path path) {
    return new FileStoreConfig(path, Duration.ofSeconds(10));
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
    Duration lockTimeout = r.positiveDuration("lock_timeout");
    if (lockTimeout.compareTo(Duration.ofMinutes(5)) > 0) {
      r.problem(
          "lock_timeout",
          r.path("lock_timeout") + " (" + Durations.format(lockTimeout) + ") must be at most 5m");
    }
    return new FileStoreConfig(path, lockTimeout, FileMode.bind(r, "mode"));
  }
}
