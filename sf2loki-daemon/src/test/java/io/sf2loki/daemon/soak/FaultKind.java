package io.sf2loki.daemon.soak;

/** What the soak breaks, and which of its two fault streams breaks it. */
enum FaultKind {
  KILL_LEADER(Stream.LEADERSHIP, "kill -9 of the leader, restarted after a moment"),
  KILL_STANDBY(Stream.LEADERSHIP, "kill -9 of the standby, restarted after a moment"),
  PAUSE_LEADER(Stream.LEADERSHIP, "SIGSTOP of the leader for longer than the ttl, then SIGCONT"),
  PAUSE_STANDBY(Stream.LEADERSHIP, "SIGSTOP of the standby for longer than the ttl, then SIGCONT"),
  TERM_LEADER(Stream.LEADERSHIP, "SIGTERM of the leader (graceful handover), then a restart"),
  DELETE_LEASE(Stream.LEADERSHIP, "the lease file deleted"),
  CORRUPT_LEASE(
      Stream.LEADERSHIP, "the lease file overwritten in place with bytes that are no lease"),
  LOKI_429(Stream.PROTOCOL, "Loki answers 429 with Retry-After: 1"),
  LOKI_5XX(Stream.PROTOCOL, "Loki answers 500, 502 or 503"),
  LOKI_RESET(Stream.PROTOCOL, "Loki drops the connection mid-body (nothing stored)"),
  LOKI_LOST_ANSWER(Stream.PROTOCOL, "Loki stores a push and drops the connection unanswered"),
  LOKI_LATENCY(Stream.PROTOCOL, "Loki answers 0.3-3 s late (beyond the 2 s push timeout: unknown)"),
  SALESFORCE_5XX(Stream.PROTOCOL, "Salesforce answers 500 or 503 to a query, download or token"),
  SALESFORCE_THROTTLED(Stream.PROTOCOL, "403 REQUEST_LIMIT_EXCEEDED on a query or a download"),
  TOKEN_EXPIRY(Stream.PROTOCOL, "every Salesforce session revoked, as an org session timeout");

  /** The two independent fault streams: one process or lease fault at a time, and the wire. */
  enum Stream {
    LEADERSHIP,
    PROTOCOL
  }

  private final Stream stream;
  private final String description;

  FaultKind(Stream stream, String description) {
    this.stream = stream;
    this.description = description;
  }

  Stream stream() {
    return stream;
  }

  String description() {
    return description;
  }

  /** True when the fault takes the leader away, so a new term must follow (a failover). */
  boolean endsTheLeadersTerm() {
    return this == KILL_LEADER || this == PAUSE_LEADER || this == TERM_LEADER;
  }
}
