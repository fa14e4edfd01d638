package io.sf2loki.loki;

import io.sf2loki.config.ConfigReader;
import io.sf2loki.config.Secret;
import io.sf2loki.config.Urls;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code sink.loki} section.
 *
 * @param pushUrl the full push URL ({@code /loki/api/v1/push} appended when the base was given)
 * @param tenantId tenant id, when configured
 * @param authToken Basic-auth password, when configured
 * @param bearerToken bearer token, when configured
 * @param sendTenantHeader send X-Scope-OrgID together with an Authorization header
 * @param encoding wire encoding
 * @param gzip gzip JSON bodies
 * @param labels static operator labels (allowlisted names)
 * @param caFile extra trusted CA certificates
 * @param proxy HTTP(S) proxy
 * @param connectTimeout connect timeout
 * @param timeout read/write timeout
 * @param maxLineBytes per-line cap, 0 disables
 * @param batch batching and queue bounds
 * @param retry retry and backoff bounds
 * @param deadLetterFile where permanently rejected entries are appended, when configured
 * @param windows how entries outside Loki's time windows are handled
 */
public record LokiSinkConfig(
    URI pushUrl,
    Optional<String> tenantId,
    Optional<Secret> authToken,
    Optional<Secret> bearerToken,
    boolean sendTenantHeader,
    Encoding encoding,
    boolean gzip,
    Map<String, String> labels,
    Optional<Path> caFile,
    Optional<URI> proxy,
    Duration connectTimeout,
    Duration timeout,
    long maxLineBytes,
    BatchConfig batch,
    RetryConfig retry,
    Optional<Path> deadLetterFile,
    TimeWindowConfig windows) {

  /** The push path Loki serves. */
  public static final String PUSH_PATH = "/loki/api/v1/push";

  /** Label names an operator may set statically (invariant 5). */
  public static final Set<String> OPERATOR_LABELS =
      Set.of("job", "service_name", "environment", "sf_org_id", "org");

  /** The two wire encodings. */
  public enum Encoding {
    PROTOBUF,
    JSON
  }

  /**
   * Batch and lane bounds.
   *
   * @param maxEntries flush at this many entries
   * @param maxBytes flush at this many line bytes
   * @param flushInterval flush this long after the first entry
   * @param queueMaxEntries entry bound of a lane queue
   * @param queueMaxBytes byte bound of a lane queue
   */
  public record BatchConfig(
      int maxEntries,
      long maxBytes,
      Duration flushInterval,
      int queueMaxEntries,
      long queueMaxBytes) {

    static BatchConfig bind(ConfigReader r) {
      return new BatchConfig(
          r.intInRange("max_entries", 1, 1_000_000),
          r.bytes("max_bytes", 1024),
          r.positiveDuration("flush_interval"),
          r.intInRange("queue_maxsize", 100, 10_000_000),
          r.bytes("queue_max_bytes", 0));
    }
  }

  /**
   * Retry bounds of the sink (internal attempts) and of the lanes (retrying the same batch).
   *
   * @param attempts attempts of one push inside the sink
   * @param minBackoff lower bound of the sink's jittered exponential wait
   * @param maxBackoff upper bound of that wait
   * @param maxRetryAfter cap on a server's Retry-After
   * @param laneMinBackoff first wait of a lane after a retryable failure
   * @param laneMaxBackoff upper bound of the lane's wait
   */
  public record RetryConfig(
      int attempts,
      Duration minBackoff,
      Duration maxBackoff,
      Duration maxRetryAfter,
      Duration laneMinBackoff,
      Duration laneMaxBackoff) {

    /** The documented defaults (loki-push.md §6). */
    public static RetryConfig defaults() {
      return new RetryConfig(
          5,
          Duration.ofMillis(500),
          Duration.ofSeconds(30),
          Duration.ofSeconds(60),
          Duration.ofSeconds(1),
          Duration.ofSeconds(30));
    }

    static RetryConfig bind(ConfigReader r) {
      RetryConfig c =
          new RetryConfig(
              r.intInRange("attempts", 1, 100),
              r.positiveDuration("min_backoff"),
              r.positiveDuration("max_backoff"),
              r.positiveDuration("max_retry_after"),
              r.positiveDuration("lane_min_backoff"),
              r.positiveDuration("lane_max_backoff"));
      if (c.maxBackoff.compareTo(c.minBackoff) < 0) {
        r.problem(
            "max_backoff",
            r.path("max_backoff") + " must not be less than " + r.path("min_backoff"));
      }
      if (c.laneMaxBackoff.compareTo(c.laneMinBackoff) < 0) {
        r.problem(
            "lane_max_backoff",
            r.path("lane_max_backoff") + " must not be less than " + r.path("lane_min_backoff"));
      }
      return c;
    }
  }

  /**
   * The defaults of every {@code sink.loki} key with the given URL, for library users who build a
   * sink without a config file.
   *
   * @throws io.sf2loki.config.ConfigInvalidException when the URL is not http(s)
   */
  public static LokiSinkConfig forUrl(String url) {
    ConfigReader r =
        new io.sf2loki.config.ConfigLoader(
                LokiSinkConfig.class.getClassLoader(), java.util.Map.of())
            .loadString("sink.loki.url = " + com.typesafe.config.ConfigUtil.quoteString(url))
            .reader();
    LokiSinkConfig config = bind(r.section("sink.loki"));
    r.throwIfInvalid();
    return config;
  }

  /** Binds and validates {@code sink.loki}. */
  public static LokiSinkConfig bind(ConfigReader r) {
    URI url = Urls.required(r, "url");
    Optional<Secret> authToken = r.optionalSecret("auth_token");
    Optional<Secret> bearer = r.optionalSecret("bearer_token");
    if (authToken.isPresent() && bearer.isPresent()) {
      r.problem(
          "bearer_token",
          r.path("bearer_token") + " and " + r.path("auth_token") + " are mutually exclusive");
    }
    Map<String, String> labels = r.stringMap("labels");
    for (String name : labels.keySet()) {
      if (name.equals("source") || name.equals("event_type")) {
        r.problem(
            "labels",
            r.path("labels")
                + "."
                + name
                + " cannot be set: source and event_type identify each stream and are set by the"
                + " sources");
      } else if (name.equals(TimeWindowConfig.LATE_LABEL)) {
        r.problem(
            "labels",
            r.path("labels")
                + "."
                + name
                + " cannot be set: the sink sets it on entries routed out of their stream's"
                + " time window (see "
                + r.path("late_policy")
                + ")");
      } else if (!OPERATOR_LABELS.contains(name)) {
        r.problem(
            "labels",
            r.path("labels")
                + "."
                + name
                + " is not an allowed label (allowed: "
                + String.join(", ", new java.util.TreeSet<>(OPERATOR_LABELS))
                + "; source and event_type are set by the sources; put other fields in"
                + " structured metadata)");
      }
    }
    Optional<Path> caFile = r.optionalString("ca_file").map(Path::of);
    caFile.ifPresent(
        p -> {
          if (!Files.isReadable(p)) {
            r.problem("ca_file", r.path("ca_file") + ": cannot read " + p);
          }
        });
    String encoding = r.oneOf("encoding", Set.of("protobuf", "json"));
    String compression = r.oneOf("compression", Set.of("gzip", "none"));
    BatchConfig batch = BatchConfig.bind(r.section("batch"));
    RetryConfig retry = RetryConfig.bind(r.section("retry"));
    Optional<Path> deadLetter = r.optionalString("dead_letter_file").map(Path::of);
    deadLetter.ifPresent(
        p -> {
          Path dir = p.toAbsolutePath().getParent();
          if (dir == null || !Files.isDirectory(dir)) {
            r.problem(
                "dead_letter_file",
                r.path("dead_letter_file") + ": directory of " + p + " missing");
          }
        });
    return new LokiSinkConfig(
        withPushPath(url),
        r.optionalString("tenant_id"),
        authToken,
        bearer,
        r.bool("send_tenant_header"),
        "json".equals(encoding) ? Encoding.JSON : Encoding.PROTOBUF,
        "gzip".equals(compression),
        Map.copyOf(labels),
        caFile,
        Urls.optional(r, "proxy"),
        r.positiveDuration("connect_timeout"),
        r.positiveDuration("timeout"),
        r.bytes("max_line_bytes", 0),
        batch,
        retry,
        deadLetter,
        TimeWindowConfig.bind(r));
  }

  static URI withPushPath(URI url) {
    String path = url.getPath() == null ? "" : url.getPath();
    if (path.endsWith(PUSH_PATH)) {
      return url;
    }
    String base = url.toString().replaceAll("/+$", "");
    return URI.create(base + PUSH_PATH);
  }
}
