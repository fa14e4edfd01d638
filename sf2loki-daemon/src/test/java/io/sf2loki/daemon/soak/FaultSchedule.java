package io.sf2loki.daemon.soak;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deals the faults of one stream from its seed: shuffled decks holding every kind of the stream
 * once, so a run of one deck's length has met every kind, and random parameters and pauses. The
 * same seed deals the same faults in the same order with the same parameters.
 */
final class FaultSchedule {

  private final FaultKind.Stream stream;
  private final SplittableRandom random;
  private final Duration ttl;
  private final Deque<FaultKind> deck = new ArrayDeque<>();
  private int decksDealt;

  /**
   * @param ttl the lease ttl: a pause lasts longer than it
   */
  FaultSchedule(FaultKind.Stream stream, long seed, Duration ttl) {
    this.stream = stream;
    this.random = new SplittableRandom(seed * 31 + stream.ordinal());
    this.ttl = ttl;
  }

  /** The next fault. */
  PlannedFault next() {
    if (deck.isEmpty()) {
      List<FaultKind> kinds = new ArrayList<>(kinds(stream));
      for (int i = kinds.size() - 1; i > 0; i--) {
        Collections.swap(kinds, i, random.nextInt(i + 1));
      }
      deck.addAll(kinds);
      decksDealt++;
    }
    FaultKind kind = deck.poll();
    return new PlannedFault(kind, count(kind), length(kind), random.nextInt(6), pauseAfter());
  }

  /** True once every kind of the stream has been dealt at least once. */
  boolean everyKindDealt() {
    return decksDealt > 1 || decksDealt == 1 && deck.isEmpty();
  }

  private int count(FaultKind kind) {
    return switch (kind) {
      case LOKI_429, LOKI_5XX, SALESFORCE_THROTTLED -> 1 + random.nextInt(3);
      case LOKI_RESET, LOKI_LOST_ANSWER, LOKI_LATENCY, SALESFORCE_5XX -> 1 + random.nextInt(2);
      default -> 1;
    };
  }

  private Duration length(FaultKind kind) {
    return switch (kind) {
      case PAUSE_LEADER, PAUSE_STANDBY -> ttl.plusMillis(500 + random.nextInt(2000));
      case KILL_LEADER, KILL_STANDBY, TERM_LEADER -> Duration.ofMillis(200 + random.nextInt(1300));
      case LOKI_LATENCY -> Duration.ofMillis(300 + random.nextInt(2700));
      default -> Duration.ZERO;
    };
  }

  private Duration pauseAfter() {
    return Duration.ofMillis(
        stream == FaultKind.Stream.LEADERSHIP
            ? 500 + random.nextInt(2000)
            : 500 + random.nextInt(2500));
  }

  /** The kinds of {@code stream}, for reports. */
  static List<FaultKind> kinds(FaultKind.Stream stream) {
    return Arrays.stream(FaultKind.values()).filter(k -> k.stream() == stream).toList();
  }
}
