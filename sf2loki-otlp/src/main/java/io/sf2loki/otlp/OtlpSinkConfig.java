package io.sf2loki.otlp;

import io.sf2loki.config.Urls;
import io.sf2loki.loki.HttpSinkSupport;
import io.sf2loki.model.StreamLabels;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Secret;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code sink.otlp} section.
 *
 * @param logsUrl the full logs URL ({@code /v1/logs} appended when the base was given)
 * @param encoding wire encoding
 * @param compression the request body's compression
 * @param compressionLevel the gzip level (1 fastest to 9 smallest) or the zstd level (1 to 19); lz4
 *     has none
 * @param headers extra request headers, sent as given
 * @param tenantId tenant id, when configured
 * @param authToken Basic-auth password, when configured
 * @param bearerToken bearer token, when configured
 * @param sendTenantHeader send X-Scope-OrgID together with an Authorization header
 * @param labels static operator labels (allowlisted names)
 * @param serviceName {@code service.name} of entries without a {@code service_name} label
 * @param serviceNamespace {@code service.namespace} of entries without an {@code org} label
 * @param environment {@code deployment.environment.name} of entries without an {@code environment}
 *     label
 * @param caFile extra trusted CA certificates
 * @param proxy HTTP(S) proxy
 * @param connectTimeout connect timeout
 * @param timeout read/write timeout
 * @param deadLetterFile where permanently rejected entries are appended, when configured
 * @param deadLetterMaxBytes the size at which the dead-letter file is rotated to {@code <path>.1}
 * @param loki the Loki behind the endpoint, when the sink plans against its time windows ({@code
 *     sink.otlp.loki.enabled}); empty for any other endpoint
 */
public record OtlpSinkConfig(
    URI logsUrl,
    Encoding encoding,
    Compression compression,
    int compressionLevel,
    Map<String, String> headers,
    Optional<String> tenantId,
    Optional<Secret> authToken,
    Optional<Secret> bearerToken,
    boolean sendTenantHeader,
    Map<String, String> labels,
    String serviceName,
    Optional<String> serviceNamespace,
    Optional<String> environment,
    Optional<Path> caFile,
    Optional<URI> proxy,
    Duration connectTimeout,
    Duration timeout,
    Optional<Path> deadLetterFile,
    long deadLetterMaxBytes,
    Optional<LokiEndpoint> loki) {

  /** The path OTLP/HTTP serves logs on, below the endpoint's base. */
  public static final String LOGS_PATH = "/v1/logs";

  /** The two wire encodings of OTLP/HTTP. */
  public enum Encoding {
    PROTOBUF("application/x-protobuf"),
    JSON("application/json");

    /** The request's {@code Content-Type}. */
    public final String contentType;

    Encoding(String contentType) {
      this.contentType = contentType;
    }
  }

  /**
   * The request body's compression ({@code Content-Encoding}). gzip is the only one every OTLP/HTTP
   * receiver must accept; zstd and lz4 (the LZ4 frame format) are what the Collector's receivers
   * and Loki 3.6 or later accept besides.
   */
  public enum Compression {
    NONE(null, 0),
    GZIP("gzip", 9),
    ZSTD("zstd", 19),
    LZ4("lz4", 0);

    private final String contentEncoding;
    private final int maxLevel;

    Compression(String contentEncoding, int maxLevel) {
      this.contentEncoding = contentEncoding;
      this.maxLevel = maxLevel;
    }

    /** The {@code Content-Encoding} header, empty for none. */
    public Optional<String> contentEncoding() {
      return Optional.ofNullable(contentEncoding);
    }

    /** The name in {@code sink.otlp.compression}. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether some OTLP receivers refuse it (gzip and none: every one must accept them). */
    public boolean optional() {
      return this == ZSTD || this == LZ4;
    }
  }

  /**
   * The Loki an endpoint is ({@code sink.otlp.loki}): which streams it makes of a record, and its
   * time windows.
   *
   * @param indexAttributes the log-record attributes the tenant's {@code otlp_config} indexes as
   *     labels ({@code log_attributes} with {@code action: index_label}), besides Loki's default
   *     resource attributes
   * @param windows its time windows and the late-data policies
   */
  public record LokiEndpoint(List<String> indexAttributes, HttpSinkSupport.WindowSettings windows) {
    public LokiEndpoint {
      indexAttributes = List.copyOf(indexAttributes);
    }
  }

  /** Copies the maps. */
  public OtlpSinkConfig {
    headers = Map.copyOf(headers);
    labels = Map.copyOf(labels);
  }

  /** Binds and validates {@code sink.otlp}. */
  public static OtlpSinkConfig bind(ConfigSection r) {
    URI url = Urls.required(r, "url");
    Optional<Secret> authToken = r.optionalSecret("auth_token");
    Optional<Secret> bearer = r.optionalSecret("bearer_token");
    if (authToken.isPresent() && bearer.isPresent()) {
      r.problem(
          "bearer_token",
          r.path("bearer_token") + " and " + r.path("auth_token") + " are mutually exclusive");
    }
    Map<String, String> headers = r.stringMap("headers");
    for (String name : headers.keySet()) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.equals("content-type") || lower.equals("content-encoding")) {
        r.problem(
            "headers",
            r.path("headers") + "." + name + " cannot be set: the sink sets it for its encoding");
      }
    }
    Map<String, String> labels = r.stringMap("labels");
    for (String name : labels.keySet()) {
      if (!StreamLabels.OPERATOR.contains(name)) {
        r.problem(
            "labels",
            r.path("labels")
                + "."
                + name
                + " is not an allowed label (allowed: "
                + String.join(", ", new TreeSet<>(StreamLabels.OPERATOR))
                + "; source and event_type are set by the sources)");
      }
    }
    Optional<Path> caFile = r.readableFile("ca_file");
    String encoding = r.oneOf("encoding", Set.of("protobuf", "json"));
    String codec = r.oneOf("compression", Set.of("gzip", "zstd", "lz4", "none"));
    Compression compression =
        switch (codec) {
          case "zstd" -> Compression.ZSTD;
          case "lz4" -> Compression.LZ4;
          case "none" -> Compression.NONE;
          default -> Compression.GZIP; // gzip, or a problem reported above
        };
    int level = r.intInRange("compression_level", 1, Compression.ZSTD.maxLevel);
    if (level > compression.maxLevel && compression.maxLevel > 0) {
      r.problem(
          "compression_level",
          r.path("compression_level")
              + " = "
              + level
              + " is out of range for "
              + compression.configName()
              + " (1 to "
              + compression.maxLevel
              + ")");
    }
    Optional<Path> deadLetter = r.fileInExistingDirectory("dead_letter_file");
    Optional<LokiEndpoint> loki = bindLoki(r.section("loki"));
    String serviceName = r.string("service_name");
    if (serviceName.isBlank()) {
      r.problem("service_name", r.path("service_name") + " must not be empty");
    }
    return new OtlpSinkConfig(
        withLogsPath(url),
        "json".equals(encoding) ? Encoding.JSON : Encoding.PROTOBUF,
        compression,
        level,
        headers,
        r.optionalString("tenant_id"),
        authToken,
        bearer,
        r.bool("send_tenant_header"),
        labels,
        serviceName,
        r.optionalString("service_namespace"),
        r.optionalString("deployment_environment"),
        caFile,
        Urls.optional(r, "proxy"),
        r.positiveDuration("connect_timeout"),
        r.positiveDuration("timeout"),
        deadLetter,
        r.bytes("dead_letter_max_bytes", 64 * 1024),
        loki);
  }

  /** {@code sink.otlp.loki}: bound and checked even when off, so a typo shows either way. */
  private static Optional<LokiEndpoint> bindLoki(ConfigSection r) {
    boolean enabled = r.bool("enabled");
    List<String> attributes = r.stringList("index_attributes");
    for (String a : attributes) {
      if (a.isBlank()) {
        r.problem("index_attributes", r.path("index_attributes") + " has an empty name");
      }
    }
    HttpSinkSupport.WindowSettings windows = HttpSinkSupport.windowSettings(r);
    String late = HttpSinkSupport.WindowSettings.lateLabel();
    if (enabled && windows.routesLateEntries() && !attributes.contains(late)) {
      r.problem(
          "index_attributes",
          r.path("late_policy")
              + " = route needs \""
              + late
              + "\" in "
              + r.path("index_attributes")
              + " and in the tenant's otlp_config (log_attributes, action: index_label): a routed"
              + " entry's late attribute must make a Loki stream of its own; or choose"
              + " late_policy = retimestamp or drop");
    }
    return enabled ? Optional.of(new LokiEndpoint(attributes, windows)) : Optional.empty();
  }

  /**
   * {@code url} as is when it ends with {@code /v1/logs}, else with it appended: an OTel exporter's
   * base endpoint ({@code http://collector:4318}, Loki's {@code http://loki:3100/otlp}) or the full
   * logs URL both work.
   */
  static URI withLogsPath(URI url) {
    String path = url.getPath() == null ? "" : url.getPath();
    if (path.endsWith(LOGS_PATH)) {
      return url;
    }
    return URI.create(url.toString().replaceAll("/+$", "") + LOGS_PATH);
  }
}
