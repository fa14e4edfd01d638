package io.sf2loki.coordinate.filelease;

import io.sf2loki.coordinate.internal.LeaseTimingRule;
import io.sf2loki.files.FileMode;
import io.sf2loki.spi.ConfigSection;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code coordinate.file_lease} section.
 *
 * @param path the lease document, on storage every replica shares
 * @param ttl how long a written lease is valid
 * @param renewInterval how often the leader renews and a standby polls; less than half the ttl
 * @param holderId this process's identity; empty means {@code hostname-pid-random}
 * @param mode the permissions the lease is written with ({@code coordinate.file_lease.mode})
 */
public record FileLeaseConfig(
    Path path, Duration ttl, Duration renewInterval, Optional<String> holderId, FileMode mode) {

  public FileLeaseConfig {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(renewInterval, "renewInterval");
    Objects.requireNonNull(holderId, "holderId");
    Objects.requireNonNull(mode, "mode");
  }

  /** A config whose lease is written 0600. */
  public FileLeaseConfig(
      Path path, Duration ttl, Duration renewInterval, Optional<String> holderId) {
    this(path, ttl, renewInterval, holderId, FileMode.OWNER_ONLY);
  }

  /** Binds {@code coordinate.file_lease}, recording every problem on {@code r}. */
  public static FileLeaseConfig bind(ConfigSection r) {
    String pathText = r.requiredString("path");
    Path path = Path.of(".");
    try {
      if (!pathText.isEmpty()) {
        path = Path.of(pathText);
      }
    } catch (InvalidPathException e) {
      r.problem("path", r.path("path") + " is not a valid path: " + e.getReason());
    }
    Duration ttl = r.positiveDuration("ttl");
    Duration renew = r.positiveDuration("renew_interval");
    LeaseTimingRule.check(r, "renew_interval", renew, "ttl", ttl);
    return new FileLeaseConfig(
        path, ttl, renew, r.optionalString("holder_id"), FileMode.bind(r, "mode"));
  }

  /** How long a claimant waits before re-reading its claim: 10% of renew_interval in [50ms, 1s]. */
  public Duration verifyPause() {
    long millis = renewInterval.toMillis() / 10;
    return Duration.ofMillis(Math.max(50, Math.min(1000, millis)));
  }
}
