package io.sf2loki.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a {@link LeaseInspector} saw.
 *
 * @param coordinatorType the coordinator's config type ({@code file_lease}, {@code k8s_lease})
 * @param location the lease's path or {@code namespace/name}
 * @param state whether someone holds it now
 * @param holder the holder identity, when the lease names one
 * @param acquired when the current holder acquired it, when recorded
 * @param renewed when it was last renewed, when recorded
 * @param expires when it expires unless renewed, when known
 * @param epoch the lease's fencing epoch, when readable
 * @param detail a human explanation for UNREADABLE/ABSENT, or empty
 */
public record LeaseInfo(
    String coordinatorType,
    String location,
    State state,
    Optional<String> holder,
    Optional<Instant> acquired,
    Optional<Instant> renewed,
    Optional<Instant> expires,
    OptionalLong epoch,
    Optional<String> detail) {

  public LeaseInfo {
    Objects.requireNonNull(coordinatorType, "coordinatorType");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(acquired, "acquired");
    Objects.requireNonNull(renewed, "renewed");
    Objects.requireNonNull(expires, "expires");
    Objects.requireNonNull(epoch, "epoch");
    Objects.requireNonNull(detail, "detail");
  }

  /** A lease that does not exist. */
  public static LeaseInfo absent(String coordinatorType, String location) {
    return new LeaseInfo(
        coordinatorType,
        location,
        State.ABSENT,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        OptionalLong.empty(),
        Optional.empty());
  }

  /** A lease that exists but cannot be read or parsed. */
  public static LeaseInfo unreadable(String coordinatorType, String location, String detail) {
    return new LeaseInfo(
        coordinatorType,
        location,
        State.UNREADABLE,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        OptionalLong.empty(),
        Optional.of(detail));
  }

  /** The lease's condition. */
  public enum State {
    /** A holder's unexpired lease: a leader is probably live. */
    HELD,
    /** The last holder let it expire: no leader is likely live. */
    EXPIRED,
    /** No lease exists. */
    ABSENT,
    /** The lease exists but cannot be read or parsed. */
    UNREADABLE
  }
}
