package io.sf2loki.testkit.salesforce;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * A scripted misbehaviour of the fake, striking the next {@link #times()} requests of its {@link
 * Route} at a named point: {@link Status} answers instead of the endpoint, {@link Malformed}
 * answers a 2xx the route does not promise, {@link CutMidStream} breaks a LogFile download
 * half-way, {@link Latency} delays a request that is then served as usual.
 */
public sealed interface Fault
    permits Fault.Status, Fault.Malformed, Fault.CutMidStream, Fault.Latency {

  /** The endpoints a fault can target. */
  enum Route {
    TOKEN,
    USERINFO,
    QUERY,
    LOGFILE,
    ANY;

    static Route parse(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }
  }

  /** The misbehaviours, by name: one per fault type, three for {@link Malformed}. */
  enum Kind {
    /** {@link Status}: answer with a status and body instead of the real response. */
    STATUS,
    /** {@link Malformed}: 200 with a body that is not JSON. */
    NON_JSON,
    /** {@link Malformed}: 200 with a JSON array. */
    JSON_ARRAY,
    /** {@link Malformed}: 200 with a JSON object that lacks {@code records}. */
    WRONG_SHAPE,
    /** {@link CutMidStream}: start the real body, then cut the connection half-way. */
    CUT_MID_STREAM,
    /** {@link Latency}: wait, then answer normally. */
    LATENCY;

    static Kind parse(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }
  }

  /** Which endpoint misbehaves. */
  Route route();

  /** What it does. */
  Kind kind();

  /** How many requests it strikes. */
  int times();

  /** The same fault for {@code n} requests. */
  Fault times(int n);

  /**
   * True when this fault can strike a request of route {@code r}: aimed at it (or at any route),
   * and of a kind that acts there. A cut needs a streamed download, so a cut aimed at any route
   * waits in the queue for a LogFile request instead of being spent on one it cannot cut.
   */
  default boolean appliesTo(Route r) {
    boolean aimed = route() == Route.ANY || route() == r;
    return aimed && (kind() != Kind.CUT_MID_STREAM || r == Route.LOGFILE);
  }

  /**
   * Answers {@code status} with {@code body} (JSON) instead of the real response.
   *
   * @param route the endpoint it strikes
   * @param status an HTTP status, 100 to 599
   * @param body the response body
   * @param times how many requests it strikes
   */
  record Status(Route route, int status, String body, int times) implements Fault {
    public Status {
      Objects.requireNonNull(route, "route");
      Objects.requireNonNull(body, "body");
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException("fault status " + status + " is not an HTTP status");
      }
      positive(times);
    }

    @Override
    public Kind kind() {
      return Kind.STATUS;
    }

    @Override
    public Status times(int n) {
      return new Status(route, status, body, n);
    }
  }

  /**
   * Answers 200 with a body the route does not promise.
   *
   * @param route the endpoint it strikes
   * @param kind {@link Kind#NON_JSON}, {@link Kind#JSON_ARRAY} or {@link Kind#WRONG_SHAPE}
   * @param times how many requests it strikes
   */
  record Malformed(Route route, Kind kind, int times) implements Fault {
    public Malformed {
      Objects.requireNonNull(route, "route");
      if (kind != Kind.NON_JSON && kind != Kind.JSON_ARRAY && kind != Kind.WRONG_SHAPE) {
        throw new IllegalArgumentException(
            "a malformed answer is NON_JSON, JSON_ARRAY or WRONG_SHAPE, not " + kind);
      }
      positive(times);
    }

    @Override
    public Malformed times(int n) {
      return new Malformed(route, kind, n);
    }
  }

  /**
   * Starts the real LogFile body, then drops the connection half-way through it.
   *
   * @param route {@link Route#LOGFILE}, or {@link Route#ANY} for the next download
   * @param times how many downloads it strikes
   */
  record CutMidStream(Route route, int times) implements Fault {
    public CutMidStream {
      if (route != Route.LOGFILE && route != Route.ANY) {
        throw new IllegalArgumentException("only a LogFile download can be cut, not " + route);
      }
      positive(times);
    }

    @Override
    public Kind kind() {
      return Kind.CUT_MID_STREAM;
    }

    @Override
    public CutMidStream times(int n) {
      return new CutMidStream(route, n);
    }
  }

  /**
   * Waits {@code delay}, then serves the request as usual.
   *
   * @param route the endpoint it strikes
   * @param delay the added latency
   * @param times how many requests it strikes
   */
  record Latency(Route route, Duration delay, int times) implements Fault {
    public Latency {
      Objects.requireNonNull(route, "route");
      if (delay.isNegative()) {
        throw new IllegalArgumentException("fault delay must not be negative: " + delay);
      }
      positive(times);
    }

    @Override
    public Kind kind() {
      return Kind.LATENCY;
    }

    @Override
    public Latency times(int n) {
      return new Latency(route, delay, n);
    }
  }

  /** Any status and body, once. */
  static Status status(Route route, int status, String body) {
    return new Status(route, status, body, 1);
  }

  /** 401 INVALID_SESSION_ID, once. */
  static Status invalidSession(Route route) {
    return status(
        route,
        401,
        "[{\"message\":\"Session expired or invalid\",\"errorCode\":\"INVALID_SESSION_ID\"}]");
  }

  /** 403 REQUEST_LIMIT_EXCEEDED, once. */
  static Status requestLimitExceeded(Route route) {
    return status(
        route,
        403,
        "[{\"message\":\"TotalRequests Limit exceeded.\",\"errorCode\":\"REQUEST_LIMIT_EXCEEDED\"}]");
  }

  /** 500 with a Salesforce error body, once. */
  static Status serverError(Route route) {
    return status(
        route,
        500,
        "[{\"message\":\"An unexpected error occurred\",\"errorCode\":\"UNKNOWN_EXCEPTION\"}]");
  }

  /** A 2xx that is not what the route promises, once. */
  static Malformed malformed(Route route, Kind kind) {
    return new Malformed(route, kind, 1);
  }

  /** A LogFile download that breaks half-way, once. */
  static CutMidStream cutMidStream() {
    return new CutMidStream(Route.LOGFILE, 1);
  }

  /** Extra latency, once. */
  static Latency latency(Route route, Duration delay) {
    return new Latency(route, delay, 1);
  }

  private static void positive(int times) {
    if (times < 1) {
      throw new IllegalArgumentException("times must be at least 1");
    }
  }
}
