package io.sf2loki.deadline;

import io.sf2loki.config.Durations;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

/**
 * A blocking file-system call did not finish within its deadline, or could not even start because
 * every thread {@link BlockingIo} may use is still stuck in an earlier call that missed its own.
 * Transient: the storage may answer again (a hung NFS or EFS mount, a failing-over file server), so
 * the caller may retry later; nothing it waited for is known to have happened or not. The message
 * names the operation, the path and the deadline.
 */
public final class IoTimeoutException extends IOException {

  private static final long serialVersionUID = 1L;

  /** Why the call failed. */
  public enum Reason {
    /** The call ran past its deadline and was abandoned. */
    DEADLINE,
    /** The call was refused at once: every I/O thread is stuck in an abandoned call. */
    SATURATED
  }

  private final String operation;
  private final String path;
  private final Duration deadline;
  private final Reason reason;

  IoTimeoutException(String operation, String path, Duration deadline, Reason reason, int threads) {
    super(message(operation, path, deadline, reason, threads));
    this.operation = Objects.requireNonNull(operation, "operation");
    this.path = Objects.requireNonNull(path, "path");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** The operation that timed out ({@code read}, {@code write}, {@code lock}, ...). */
  public String operation() {
    return operation;
  }

  /** The file the call was about. */
  public String path() {
    return path;
  }

  /** The deadline it missed. */
  public Duration deadline() {
    return deadline;
  }

  /** Whether it ran past its deadline or could not start. */
  public Reason reason() {
    return reason;
  }

  private static String message(
      String operation, String path, Duration deadline, Reason reason, int threads) {
    String limit = Durations.format(deadline);
    if (reason == Reason.DEADLINE) {
      return operation
          + " of "
          + path
          + " did not finish within its "
          + limit
          + " deadline and was abandoned; is the file system hung (an unresponsive NFS/EFS"
          + " mount)?";
    }
    return operation
        + " of "
        + path
        + " was not started: all "
        + threads
        + " I/O thread(s) of this file are still stuck in calls that missed their deadline ("
        + limit
        + "); is the file system hung (an unresponsive NFS/EFS mount)?";
  }
}
