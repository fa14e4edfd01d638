package io.sf2loki.testkit.loki;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Optional;

/**
 * A scripted misbehaviour applied to the next {@code count} pushes, in the shape {@code POST
 * /testkit/faults} accepts: {@code {"status": 429, "retry_after": "1", "count": 4}}, {@code
 * {"reset": true, "count": 2}}, {@code {"latency_ms": 500, "count": 10}}.
 *
 * @param status the status to answer instead of processing the push (0: process normally)
 * @param retryAfter a {@code Retry-After} header value to send with {@code status}
 * @param reset drop the connection after reading part of the body, answering nothing
 * @param latency delay before answering
 * @param count how many pushes this fault applies to
 */
public record Fault(
    int status, Optional<String> retryAfter, boolean reset, Duration latency, int count) {

  public Fault {
    if (count < 1) {
      throw new IllegalArgumentException("fault count must be at least 1");
    }
    if (status != 0 && (status < 100 || status > 599)) {
      throw new IllegalArgumentException("fault status " + status + " is not an HTTP status");
    }
  }

  /** Answer {@code status} to the next {@code count} pushes without storing them. */
  public static Fault status(int status, int count) {
    return new Fault(status, Optional.empty(), false, Duration.ZERO, count);
  }

  /** Answer {@code status} with {@code Retry-After: retryAfter} (seconds or an HTTP date). */
  public static Fault status(int status, String retryAfter, int count) {
    return new Fault(status, Optional.of(retryAfter), false, Duration.ZERO, count);
  }

  /** Drop the connection mid-body on the next {@code count} pushes. */
  public static Fault reset(int count) {
    return new Fault(0, Optional.empty(), true, Duration.ZERO, count);
  }

  /** Delay the next {@code count} responses (the pushes are processed normally). */
  public static Fault latency(Duration latency, int count) {
    return new Fault(0, Optional.empty(), false, latency, count);
  }

  /** Parses the JSON form; unknown fields are ignored. */
  static Fault fromJson(JsonNode node) {
    int count = node.path("count").asInt(1);
    Optional<String> retryAfter =
        node.hasNonNull("retry_after")
            ? Optional.of(node.get("retry_after").asText())
            : Optional.empty();
    return new Fault(
        node.path("status").asInt(0),
        retryAfter,
        node.path("reset").asBoolean(false),
        Duration.ofMillis(node.path("latency_ms").asLong(0)),
        count);
  }

  Fault decrement() {
    return new Fault(status, retryAfter, reset, latency, count - 1);
  }
}
