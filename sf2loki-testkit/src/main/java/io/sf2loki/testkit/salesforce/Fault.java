package io.sf2loki.testkit.salesforce;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * A scripted misbehaviour of the fake, applied to the next {@code times} requests of its route.
 *
 * @param route which endpoint misbehaves
 * @param kind what it does
 * @param status the HTTP status for {@link Kind#STATUS}
 * @param body the response body for {@link Kind#STATUS}
 * @param times how many requests it applies to
 * @param delay added latency for {@link Kind#LATENCY}
 */
public record Fault(Route route, Kind kind, int status, String body, int times, Duration delay) {

  /** The endpoints a fault can target. */
  public enum Route {
    TOKEN,
    USERINFO,
    QUERY,
    LOGFILE,
    ANY;

    static Route parse(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }
  }

  /** The misbehaviours. */
  public enum Kind {
    /** Answer with {@code status} and {@code body} instead of the real response. */
    STATUS,
    /** 200 with a body that is not JSON. */
    NON_JSON,
    /** 200 with a JSON array. */
    JSON_ARRAY,
    /** 200 with a JSON object that lacks {@code records}. */
    WRONG_SHAPE,
    /** Start the real body, then cut the connection half-way. */
    CUT_MID_STREAM,
    /** Wait {@code delay}, then answer normally. */
    LATENCY;

    static Kind parse(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }
  }

  public Fault {
    Objects.requireNonNull(route, "route");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(delay, "delay");
    if (times < 1) {
      throw new IllegalArgumentException("times must be at least 1");
    }
  }

  /** Any status and body, once. */
  public static Fault status(Route route, int status, String body) {
    return new Fault(route, Kind.STATUS, status, body, 1, Duration.ZERO);
  }

  /** 401 INVALID_SESSION_ID, once. */
  public static Fault invalidSession(Route route) {
    return status(
        route,
        401,
        "[{\"message\":\"Session expired or invalid\",\"errorCode\":\"INVALID_SESSION_ID\"}]");
  }

  /** 403 REQUEST_LIMIT_EXCEEDED, once. */
  public static Fault requestLimitExceeded(Route route) {
    return status(
        route,
        403,
        "[{\"message\":\"TotalRequests Limit exceeded.\",\"errorCode\":\"REQUEST_LIMIT_EXCEEDED\"}]");
  }

  /** 500 with a Salesforce error body, once. */
  public static Fault serverError(Route route) {
    return status(
        route,
        500,
        "[{\"message\":\"An unexpected error occurred\",\"errorCode\":\"UNKNOWN_EXCEPTION\"}]");
  }

  /** A 2xx that is not what the route promises, once. */
  public static Fault malformed(Route route, Kind kind) {
    return new Fault(route, kind, 200, "", 1, Duration.ZERO);
  }

  /** A LogFile download that breaks half-way, once. */
  public static Fault cutMidStream() {
    return new Fault(Route.LOGFILE, Kind.CUT_MID_STREAM, 200, "", 1, Duration.ZERO);
  }

  /** Extra latency, once. */
  public static Fault latency(Route route, Duration delay) {
    return new Fault(route, Kind.LATENCY, 200, "", 1, delay);
  }

  /** The same fault for {@code n} requests. */
  public Fault times(int n) {
    return new Fault(route, kind, status, body, n, delay);
  }

  /**
   * True when this fault can strike a request of route {@code r}: aimed at it (or at any route),
   * and of a kind that acts there. A cut needs a streamed download, so a cut aimed at any route
   * waits in the queue for a LogFile request instead of being spent on one it cannot cut.
   */
  boolean appliesTo(Route r) {
    boolean aimed = route == Route.ANY || route == r;
    return aimed && (kind != Kind.CUT_MID_STREAM || r == Route.LOGFILE);
  }
}
