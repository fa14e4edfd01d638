package io.sf2loki.daemon.soak;

import java.time.Duration;

/**
 * One fault as the seeded schedule deals it; only its effect on the running system is left to
 * timing.
 *
 * @param kind what breaks
 * @param count how many requests a wire fault strikes (1 for the others)
 * @param length how long a pause lasts, a restart waits or a Loki answer is late (zero otherwise)
 * @param variant which status, route or corruption, by {@link FaultKind}
 * @param pauseAfter how long the stream waits before dealing its next fault
 */
record PlannedFault(FaultKind kind, int count, Duration length, int variant, Duration pauseAfter) {

  /** Loki's answer to {@link FaultKind#LOKI_5XX}, by variant. */
  static final int[] LOKI_STATUSES = {500, 502, 503};

  /** Salesforce's answer to {@link FaultKind#SALESFORCE_5XX}, by variant / 3. */
  static final int[] SALESFORCE_STATUSES = {500, 503};

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(kind.name());
    if (count > 1) {
      out.append(" x").append(count);
    }
    if (!length.isZero()) {
      out.append(' ').append(length.toMillis()).append("ms");
    }
    return out.append(" v").append(variant).toString();
  }
}
