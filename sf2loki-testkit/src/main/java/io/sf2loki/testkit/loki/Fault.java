package io.sf2loki.testkit.loki;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A scripted misbehaviour of the fake Loki, striking the next {@link #count()} pushes at a named
 * point of the exchange: {@link Status} answers instead of storing, {@link DisconnectMidBody} drops
 * the connection while the body is read, {@link Latency} delays a push that is then stored, {@link
 * LostAnswer} stores a push and drops the connection instead of answering.
 *
 * <p>{@code POST /testkit/faults} accepts the JSON forms {@code {"status": 429, "retry_after": "1",
 * "count": 4}}, {@code {"reset": true, "count": 2}}, {@code {"latency_ms": 500, "count": 10}} and
 * {@code {"lost_answer": true, "count": 1}}; {@code latency_ms} with {@code status} delays that
 * answer. {@code count} defaults to 1.
 */
public sealed interface Fault
    permits Fault.Status, Fault.DisconnectMidBody, Fault.Latency, Fault.LostAnswer {

  /** How many pushes this fault strikes. */
  int count();

  /**
   * Answers {@code status}, with a {@code Retry-After} header when given, instead of processing the
   * push: nothing is stored.
   *
   * @param status an HTTP status, 100 to 599
   * @param retryAfter the {@code Retry-After} value (seconds or an HTTP date)
   * @param delay how long to wait, once the body is read, before answering
   * @param count how many pushes it strikes
   */
  record Status(int status, Optional<String> retryAfter, Duration delay, int count)
      implements Fault {
    public Status {
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException("fault status " + status + " is not an HTTP status");
      }
      Objects.requireNonNull(retryAfter, "retryAfter");
      delay = nonNegative(delay);
      positive(count);
    }
  }

  /**
   * Reads half of the announced body (one byte when none is announced), then closes the connection
   * without answering: nothing is stored, and the client sees a connection lost mid-request.
   *
   * @param count how many pushes it strikes
   */
  record DisconnectMidBody(int count) implements Fault {
    public DisconnectMidBody {
      positive(count);
    }
  }

  /**
   * Waits {@code delay} once the body is read, then processes the push as usual.
   *
   * @param delay the added latency
   * @param count how many pushes it strikes
   */
  record Latency(Duration delay, int count) implements Fault {
    public Latency {
      delay = nonNegative(delay);
      positive(count);
    }
  }

  /**
   * Processes the push as usual (what Loki accepts is stored), then closes the connection without
   * answering: the client cannot tell that the push landed, as when a proxy in front of Loki dies
   * between Loki's answer and the client. A client that retries sends the entries again, and Loki
   * drops them as exact duplicates.
   *
   * @param count how many pushes it strikes
   */
  record LostAnswer(int count) implements Fault {
    public LostAnswer {
      positive(count);
    }
  }

  /** Answer {@code status} to the next {@code count} pushes without storing them. */
  static Status status(int status, int count) {
    return new Status(status, Optional.empty(), Duration.ZERO, count);
  }

  /** Answer {@code status} with {@code Retry-After: retryAfter} (seconds or an HTTP date). */
  static Status status(int status, String retryAfter, int count) {
    return new Status(status, Optional.of(retryAfter), Duration.ZERO, count);
  }

  /** Drop the connection mid-body on the next {@code count} pushes. */
  static DisconnectMidBody disconnectMidBody(int count) {
    return new DisconnectMidBody(count);
  }

  /** The same as {@link #disconnectMidBody(int)}: the connection is reset mid-body. */
  static DisconnectMidBody reset(int count) {
    return disconnectMidBody(count);
  }

  /** Delay the next {@code count} responses (the pushes are processed normally). */
  static Latency latency(Duration latency, int count) {
    return new Latency(latency, count);
  }

  /** Store the next {@code count} pushes but drop the connection instead of answering them. */
  static LostAnswer lostAnswer(int count) {
    return new LostAnswer(count);
  }

  private static Duration nonNegative(Duration delay) {
    Objects.requireNonNull(delay, "delay");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("fault delay must not be negative: " + delay);
    }
    return delay;
  }

  private static void positive(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("fault count must be at least 1");
    }
  }
}
