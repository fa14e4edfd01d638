package io.sf2loki.loki;

import io.sf2loki.config.Durations;
import io.sf2loki.spi.ConfigSection;
import java.time.Duration;
import java.util.Set;

/**
 * How the sink keeps entries inside Loki's three time rules (loki-push.md §7): the per-stream
 * out-of-order window, {@code creation_grace_period} and {@code reject_old_samples_max_age}. Each
 * duration is the tenant's value as sf2loki should assume it; the defaults are Loki's less a safety
 * margin, because an entry checked here still waits in a lane before Loki checks it.
 *
 * @param outOfOrderWindow an entry older than its stream's newest timestamp minus this is late
 * @param creationGracePeriod an entry further ahead of this host's clock than this is too new
 * @param maxAge an entry older than now minus this (less {@link #MAX_AGE_MARGIN}) is too old
 * @param latePolicy what happens to a late entry
 * @param lateStreams how many {@code late} label values routing may use
 * @param futurePolicy what happens to a too-new entry
 * @param maxHold the longest a batch is held back for a too-new entry under {@link
 *     FuturePolicy#HOLD}; an entry further ahead is re-timestamped instead
 */
public record TimeWindowConfig(
    Duration outOfOrderWindow,
    Duration creationGracePeriod,
    Duration maxAge,
    LatePolicy latePolicy,
    int lateStreams,
    FuturePolicy futurePolicy,
    Duration maxHold) {

  /**
   * Subtracted from {@link #maxAge}: an entry this close to the limit may be too old by the time a
   * retried push reaches Loki.
   */
  public static final Duration MAX_AGE_MARGIN = Duration.ofHours(1);

  /** The stream label that routed late entries carry, with values {@code 1..lateStreams}. */
  public static final String LATE_LABEL = io.sf2loki.model.StreamLabels.LATE;

  /** The structured-metadata key holding the event time of a re-timestamped entry. */
  public static final String EVENT_TIME_KEY = "event_time";

  /** What happens to an entry too far behind its stream's newest one (and to a too-old one). */
  public enum LatePolicy {
    /** Into a stream of its own ({@code late="N"}) where it is not behind; too old: re-stamp. */
    ROUTE,
    /** Re-stamped inside the window, the event time kept in {@code event_time} metadata. */
    RETIMESTAMP,
    /** Dropped, counted and dead-lettered; its checkpoint moves on. */
    DROP
  }

  /** What happens to an entry further ahead of this host's clock than Loki accepts. */
  public enum FuturePolicy {
    /** The batch waits until Loki accepts it (up to {@code max_hold}; further ahead: re-stamp). */
    HOLD,
    /** Re-stamped to the push time, the event time kept in {@code event_time} metadata. */
    RETIMESTAMP,
    /** Dropped, counted and dead-lettered; its checkpoint moves on. */
    DROP
  }

  /** The documented defaults (a Loki tenant with Loki's default limits). */
  public static TimeWindowConfig defaults() {
    return new TimeWindowConfig(
        Duration.ofMinutes(55),
        Duration.ofMinutes(9),
        Duration.ofDays(7),
        LatePolicy.ROUTE,
        3,
        FuturePolicy.HOLD,
        Duration.ofMinutes(1));
  }

  /** A copy with another hold limit. */
  public TimeWindowConfig withMaxHold(Duration hold) {
    return new TimeWindowConfig(
        outOfOrderWindow, creationGracePeriod, maxAge, latePolicy, lateStreams, futurePolicy, hold);
  }

  /** A copy with another late policy. */
  public TimeWindowConfig withLatePolicy(LatePolicy policy) {
    return new TimeWindowConfig(
        outOfOrderWindow, creationGracePeriod, maxAge, policy, lateStreams, futurePolicy, maxHold);
  }

  /** A copy with another future policy. */
  public TimeWindowConfig withFuturePolicy(FuturePolicy policy) {
    return new TimeWindowConfig(
        outOfOrderWindow, creationGracePeriod, maxAge, latePolicy, lateStreams, policy, maxHold);
  }

  /** A copy with another number of late streams. */
  public TimeWindowConfig withLateStreams(int streams) {
    return new TimeWindowConfig(
        outOfOrderWindow, creationGracePeriod, maxAge, latePolicy, streams, futurePolicy, maxHold);
  }

  /** Binds the time-window keys of the {@code sink.loki} section. */
  static TimeWindowConfig bind(ConfigSection r) {
    Duration window = r.duration("out_of_order_window"); // 0: a tenant without unordered writes
    Duration grace = r.duration("creation_grace_period");
    Duration maxAge = r.positiveDuration("max_age");
    String late = r.oneOf("late_policy", Set.of("route", "retimestamp", "drop"));
    String future = r.oneOf("future_policy", Set.of("hold", "retimestamp", "drop"));
    int lateStreams = r.intInRange("late_streams", 1, 10);
    Duration maxHold = r.duration("max_hold");
    if (maxAge.compareTo(MAX_AGE_MARGIN.plus(window)) <= 0) {
      r.problem(
          "max_age",
          r.path("max_age")
              + " ("
              + Durations.format(maxAge)
              + ") must be longer than "
              + r.path("out_of_order_window")
              + " plus one hour");
    }
    if (window.isNegative()) {
      r.problem("out_of_order_window", r.path("out_of_order_window") + " must not be negative");
    }
    if (grace.isNegative()) {
      r.problem("creation_grace_period", r.path("creation_grace_period") + " must not be negative");
    }
    if (maxHold.isNegative()) {
      r.problem("max_hold", r.path("max_hold") + " must not be negative");
    }
    return new TimeWindowConfig(
        window,
        grace,
        maxAge,
        parse(LatePolicy.class, late, LatePolicy.ROUTE),
        lateStreams,
        parse(FuturePolicy.class, future, FuturePolicy.HOLD),
        maxHold);
  }

  /** The constant named {@code value}; {@code fallback} when invalid (already a problem). */
  private static <E extends Enum<E>> E parse(Class<E> type, String value, E fallback) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value)) {
        return e;
      }
    }
    return fallback;
  }
}
