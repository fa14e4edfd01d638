package io.sf2loki.testkit.otlp;

import java.util.Objects;
import java.util.Optional;

/**
 * A scripted misbehaviour of the fake OTLP receiver, striking the next {@link #count()} exports.
 * {@link Status} answers instead of recording, as a collector under pressure does ({@code 503},
 * {@code 429} with {@code Retry-After}); {@link None} lets exports through, to aim later faults.
 */
public sealed interface OtlpFault permits OtlpFault.Status, OtlpFault.None {

  /** How many exports this fault strikes. */
  int count();

  /**
   * Answers {@code status} (with {@code Retry-After} when given) instead of recording the export.
   *
   * @param status an HTTP status, 100 to 599
   * @param retryAfter the {@code Retry-After} value, in seconds
   * @param count how many exports it strikes
   */
  record Status(int status, Optional<String> retryAfter, int count) implements OtlpFault {
    public Status {
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException("fault status " + status + " is not an HTTP status");
      }
      Objects.requireNonNull(retryAfter, "retryAfter");
      if (count < 1) {
        throw new IllegalArgumentException("fault count must be at least 1");
      }
    }
  }

  /**
   * Lets the next {@code count} exports be answered as usual, so that the faults queued behind it
   * strike later exports.
   *
   * @param count how many exports it lets through
   */
  record None(int count) implements OtlpFault {
    public None {
      if (count < 1) {
        throw new IllegalArgumentException("fault count must be at least 1");
      }
    }
  }

  /** Answer the next {@code count} exports as usual (faults queued behind strike later ones). */
  static None none(int count) {
    return new None(count);
  }

  /** Answer {@code status} to the next {@code count} exports without recording them. */
  static Status status(int status, int count) {
    return new Status(status, Optional.empty(), count);
  }

  /** Answer {@code 429} with {@code Retry-After: seconds} to the next {@code count} exports. */
  static Status throttled(int seconds, int count) {
    return retryAfter(429, seconds, count);
  }

  /** Answer {@code status} with {@code Retry-After: seconds} to the next {@code count} exports. */
  static Status retryAfter(int status, int seconds, int count) {
    return new Status(status, Optional.of(Integer.toString(seconds)), count);
  }
}
