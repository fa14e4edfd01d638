package io.sf2loki.otlp;

import io.sf2loki.otlp.OtlpSinkConfig.Encoding;
import io.sf2loki.spi.Secret;
import io.sf2loki.testkit.TestTiming;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Test configurations of the OTLP sink, built field by field. */
public final class OtlpConfigs {

  private final URI url;
  private Encoding encoding = Encoding.PROTOBUF;
  private OtlpSinkConfig.Compression compression = OtlpSinkConfig.Compression.GZIP;
  private int level = 1;
  private Map<String, String> headers = Map.of();
  private Optional<String> tenant = Optional.empty();
  private Optional<Secret> basic = Optional.empty();
  private Optional<Secret> bearer = Optional.empty();
  private Optional<String> namespace = Optional.empty();
  private Optional<String> environment = Optional.empty();
  private Optional<Path> deadLetter = Optional.empty();
  private Optional<OtlpSinkConfig.LokiEndpoint> loki = Optional.empty();

  private OtlpConfigs(URI url) {
    this.url = url;
  }

  /** Protobuf, gzip, no auth, exporting to {@code url} (a base: /v1/logs is appended). */
  public static OtlpConfigs to(URI url) {
    return new OtlpConfigs(url);
  }

  public OtlpConfigs encoding(Encoding encoding, boolean gzip) {
    this.encoding = encoding;
    this.compression = gzip ? OtlpSinkConfig.Compression.GZIP : OtlpSinkConfig.Compression.NONE;
    return this;
  }

  public OtlpConfigs compression(OtlpSinkConfig.Compression compression) {
    this.compression = compression;
    return this;
  }

  public OtlpConfigs gzipLevel(int level) {
    this.level = level;
    return this;
  }

  public OtlpConfigs headers(Map<String, String> headers) {
    this.headers = headers;
    return this;
  }

  public OtlpConfigs tenant(String tenant) {
    this.tenant = Optional.of(tenant);
    return this;
  }

  public OtlpConfigs basic(String token) {
    this.basic = Optional.of(Secret.of(token));
    return this;
  }

  public OtlpConfigs bearer(String token) {
    this.bearer = Optional.of(Secret.of(token));
    return this;
  }

  public OtlpConfigs namespace(String namespace) {
    this.namespace = Optional.of(namespace);
    return this;
  }

  public OtlpConfigs environment(String environment) {
    this.environment = Optional.of(environment);
    return this;
  }

  public OtlpConfigs deadLetter(Path file) {
    this.deadLetter = Optional.of(file);
    return this;
  }

  /**
   * Plans against a Loki's time windows: {@code hocon} holds the keys of {@code sink.otlp.loki}
   * ({@code enabled = true} is implied).
   */
  public OtlpConfigs loki(String hocon) {
    this.loki =
        OtlpSinkConfigTest.bind(
                "sink.otlp { url = \"http://loki\"\n loki { enabled = true\n" + hocon + "\n} }")
            .loki();
    return this;
  }

  public OtlpSinkConfig build() {
    return new OtlpSinkConfig(
        OtlpSinkConfig.withLogsPath(url),
        encoding,
        compression,
        level,
        headers,
        tenant,
        basic,
        bearer,
        false,
        Map.of(),
        "salesforce",
        namespace,
        environment,
        Optional.empty(),
        Optional.empty(),
        TestTiming.seconds(5),
        TestTiming.seconds(5), // a bound: exports answer in milliseconds
        deadLetter,
        64L * 1024 * 1024,
        loki);
  }
}
