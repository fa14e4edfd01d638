package io.sf2loki.coordinate.filelease;

import io.sf2loki.config.Durations;
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
 * @param ioTimeout the deadline of each read and write of the lease file, and the leader's safety
 *     margin: it steps down when a renewal can no longer finish one {@code ioTimeout} before its
 *     lease expires ({@code coordinate.file_lease.io_timeout})
 */
public record FileLeaseConfig(
    Path path,
    Duration ttl,
    Duration renewInterval,
    Optional<String> holderId,
    Duration ioTimeout,
    FileMode mode) {

  public FileLeaseConfig {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(renewInterval, "renewInterval");
    Objects.requireNonNull(holderId, "holderId");
    Objects.requireNonNull(ioTimeout, "ioTimeout");
    Objects.requireNonNull(mode, "mode");
  }

  /**
   * A config written 0600 whose I/O deadline is derived from the timings ({@link
   * #derivedIoTimeout}).
   */
  public FileLeaseConfig(
      Path path, Duration ttl, Duration renewInterval, Optional<String> holderId) {
    this(
        path,
        ttl,
        renewInterval,
        holderId,
        derivedIoTimeout(ttl, renewInterval),
        FileMode.OWNER_ONLY);
  }

  /** A config written 0600. */
  public FileLeaseConfig(
      Path path,
      Duration ttl,
      Duration renewInterval,
      Optional<String> holderId,
      Duration ioTimeout) {
    this(path, ttl, renewInterval, holderId, ioTimeout, FileMode.OWNER_ONLY);
  }

  /**
   * The default {@code io_timeout}: {@code (ttl - renew_interval) / 4} (5s at the defaults), at
   * least 1ms, which always keeps {@code renew_interval + 3 * io_timeout <= ttl}.
   */
  public static Duration derivedIoTimeout(Duration ttl, Duration renewInterval) {
    Duration quarter = ttl.minus(renewInterval).dividedBy(4);
    return quarter.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : quarter;
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
    Duration io = ioTimeout(r, ttl, renew);
    return new FileLeaseConfig(
        path, ttl, renew, r.optionalString("holder_id"), io, FileMode.bind(r, "mode"));
  }

  /**
   * {@code io_timeout}, derived when unset. A set one must leave a renewal begun on schedule the
   * time to read and write the lease (each within {@code io_timeout}) and still finish one {@code
   * io_timeout} before the lease expires: {@code renew_interval + 3 * io_timeout <= ttl}.
   */
  private static Duration ioTimeout(ConfigSection r, Duration ttl, Duration renew) {
    Optional<Duration> set = r.optionalDuration("io_timeout");
    if (set.isEmpty()) {
      return derivedIoTimeout(ttl, renew);
    }
    Duration io = set.get();
    if (io.isZero() || io.isNegative()) {
      r.problem(
          "io_timeout",
          r.path("io_timeout") + " (" + Durations.format(io) + ") must be greater than zero");
      return derivedIoTimeout(ttl, renew);
    }
    if (renew.plus(io.multipliedBy(3)).compareTo(ttl) > 0) {
      r.problem(
          "io_timeout",
          r.path("io_timeout")
              + " ("
              + Durations.format(io)
              + ") is too long for ttl ("
              + Durations.format(ttl)
              + ") and renew_interval ("
              + Durations.format(renew)
              + "): renew_interval + 3 x io_timeout must not exceed ttl, so that a renewal begun"
              + " on schedule can read and write the lease and still finish one io_timeout before"
              + " it expires; leave it unset to derive (ttl - renew_interval) / 4");
    }
    return io;
  }

  /** How long a claimant waits before re-reading its claim: 10% of renew_interval in [50ms, 1s]. */
  public Duration verifyPause() {
    long millis = renewInterval.toMillis() / 10;
    return Duration.ofMillis(Math.max(50, Math.min(1000, millis)));
  }
}
