package io.sf2loki.cli.command;

import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.spi.LeaseInfo;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * Decides, before any store access, whether a {@code state} command may run (invariant 7).
 *
 * <p>Under a lease coordinator the daemon holds no state lock (the lease is its exclusivity), so
 * only the coordinator can tell whether a leader may be live. Every {@code state} command is
 * refused without {@code --force}, with the lease facts the {@link io.sf2loki.spi.LeaseInspector}
 * reports. Under {@code noop} the file store's own lock does the job.
 */
final class RunningDaemonGuard {

  private final Clock clock;
  private final Map<String, String> variables;

  /**
   * @param variables the process environment, for the lease inspector
   */
  RunningDaemonGuard(Clock clock, Map<String, String> variables) {
    this.clock = clock;
    this.variables = variables;
  }

  /**
   * @throws CommandFailedException when the command must be refused
   */
  void check(Sf2LokiConfig config, String command, boolean force) {
    if (force || !config.isCoordinated()) {
      return;
    }
    Optional<LeaseInfo> lease =
        config.coordinator().inspector(clock, variables).map(inspector -> inspector.inspect());
    throw new CommandFailedException(refusal(config.coordinatorType(), command, lease));
  }

  String refusal(String coordinatorType, String command, Optional<LeaseInfo> lease) {
    return "refusing 'state "
        + command
        + "': coordinate.type is "
        + coordinatorType
        + ", so a running daemon does not hold the state lock and only the lease says whether a"
        + " leader is live. "
        + lease.map(this::describe).orElse("The lease cannot be inspected.")
        + "\nStop the leader and the standby (or it takes over) before repairing checkpoints,"
        + " repair while they run with 'state set|delete --fence-leader', or pass --force to"
        + " bypass this check.";
  }

  private String describe(LeaseInfo info) {
    String where = " (" + info.location() + ")";
    return switch (info.state()) {
      case HELD -> {
        if (info.expires().map(e -> e.isAfter(clock.instant())).orElse(true)) {
          yield "The lease"
              + where
              + " is held by "
              + info.holder().orElse("an unnamed holder")
              + info.expires().map(e -> " until " + e).orElse("")
              + info.epoch().stream().mapToObj(e -> " at epoch " + e).findFirst().orElse("")
              + ": a leader is probably running.";
        }
        yield stale(info, where, "expired at " + info.expires().orElseThrow());
      }
      case EXPIRED ->
          stale(info, where, "expired" + info.expires().map(e -> " at " + e).orElse(""));
      case ABSENT -> stale(info, where, "does not exist");
      case UNREADABLE ->
          stale(info, where, "cannot be read" + info.detail().map(d -> " (" + d + ")").orElse(""));
    };
  }

  private static String stale(LeaseInfo info, String where, String what) {
    return "The lease"
        + where
        + " "
        + what
        + info.holder().map(h -> "; last holder " + h).orElse("")
        + ", so it looks stale and no leader is likely live — refusing anyway.";
  }
}
