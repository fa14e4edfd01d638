package io.sf2loki.loki;

import io.sf2loki.config.Urls;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Secret;
import java.net.URI;
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
 * @param deadLetterFile where permanently rejected entries are appended, when configured
 * @param deadLetterMaxBytes the size at which the dead-letter file is rotated to {@code <path>.1}
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
    Optional<Path> deadLetterFile,
    long deadLetterMaxBytes,
    TimeWindowConfig windows) {

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(LokiSinkConfig.class);

  /** The push path Loki serves. */
  public static final String PUSH_PATH = "/loki/api/v1/push";

  /** Label names an operator may set statically (invariant 5). */
  public static final Set<String> OPERATOR_LABELS = io.sf2loki.model.StreamLabels.OPERATOR;

  /** The two wire encodings. */
  public enum Encoding {
    PROTOBUF,
    JSON
  }

  /**
   * The defaults of every {@code sink.loki} key with the given URL, for library users who build a
   * sink without a config file.
   *
   * @throws io.sf2loki.config.ConfigInvalidException when the URL is not http(s)
   */
  public static LokiSinkConfig forUrl(String url) {
    io.sf2loki.config.ConfigReader r =
        new io.sf2loki.config.ConfigLoader(
                LokiSinkConfig.class.getClassLoader(), java.util.Map.of())
            .loadString("sink.loki.url = " + com.typesafe.config.ConfigUtil.quoteString(url))
            .reader();
    LokiSinkConfig config = bind(r.section("sink.loki"));
    r.throwIfInvalid();
    return config;
  }

  /** Binds and validates {@code sink.loki}. */
  public static LokiSinkConfig bind(ConfigSection r) {
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
      } else if (name.equals(io.sf2loki.model.StreamLabels.LATE)) {
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
    Optional<Path> caFile = r.readableFile("ca_file");
    String encoding = r.oneOf("encoding", Set.of("protobuf", "json"));
    String compression = r.oneOf("compression", Set.of("gzip", "none"));
    acceptRetiredRetryKeys(r.section("retry"));
    Optional<Path> deadLetter = r.fileInExistingDirectory("dead_letter_file");
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
        deadLetter,
        r.bytes("dead_letter_max_bytes", 64 * 1024),
        TimeWindowConfig.bind(r));
  }

  /**
   * {@code retry.attempts}, {@code min_backoff} and {@code max_backoff} bounded the sink's own
   * retries, which are gone (the lane is the one retry owner, {@code retry.lane_*}): they are still
   * accepted and checked, so existing files keep working, and otherwise ignored.
   */
  private static void acceptRetiredRetryKeys(ConfigSection retry) {
    retry.intInRange("attempts", 1, 100);
    retry.positiveDuration("min_backoff");
    retry.positiveDuration("max_backoff");
    for (String key : new String[] {"attempts", "min_backoff", "max_backoff"}) {
      if (retry.isSetByUser(key)) {
        LOG.warn(
            "{} is retired and ignored: the lane retries every failed push itself, with {} and {}",
            retry.path(key),
            retry.path("lane_min_backoff"),
            retry.path("lane_max_backoff"));
      }
    }
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
