package io.sf2loki.daemon.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the fault streams did: faults injected by kind, the failover each leader fault caused, the
 * pushes whose outcome the daemon could not know, and what went wrong along the way (a replica that
 * did not come back, a SIGTERM that did not end in exit 0). Thread-safe.
 */
final class FaultTally {

  private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);
  private final Map<FaultKind, Duration> longestFailover = new EnumMap<>(FaultKind.class);
  private final List<String> problems = new ArrayList<>();
  private int unknownOutcomes;

  synchronized void injected(FaultKind kind) {
    injected.merge(kind, 1, Integer::sum);
  }

  /** A leader fault was followed by a new term after {@code failover}. */
  synchronized void failover(FaultKind kind, Duration failover) {
    longestFailover.merge(kind, failover, (a, b) -> a.compareTo(b) >= 0 ? a : b);
  }

  /**
   * {@code pushes} pushes will be stored by Loki without the daemon seeing it (a lost answer, an
   * answer later than the push timeout): the lane retries them, and Loki drops the copies.
   */
  synchronized void unknownOutcomes(int pushes) {
    unknownOutcomes += pushes;
  }

  synchronized void problem(String problem) {
    problems.add(problem);
  }

  synchronized Map<FaultKind, Integer> injected() {
    return new EnumMap<>(injected);
  }

  synchronized Map<FaultKind, Duration> longestFailover() {
    return new EnumMap<>(longestFailover);
  }

  synchronized int unknownOutcomes() {
    return unknownOutcomes;
  }

  synchronized List<String> problems() {
    return List.copyOf(problems);
  }
}
