package io.sf2loki.loki;

import io.sf2loki.loki.LokiSinkConfig.Encoding;
import io.sf2loki.spi.Secret;
import io.sf2loki.testkit.TestTiming;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Test configurations of the sink, built field by field. */
public final class LokiConfigs {

  private URI url;
  private Optional<String> tenant = Optional.of("tenant-1");
  private Optional<Secret> basic = Optional.empty();
  private Optional<Secret> bearer = Optional.empty();
  private boolean sendTenant;
  private Encoding encoding = Encoding.PROTOBUF;
  private boolean gzip;
  private long maxLineBytes = 262_144;
  private Optional<Path> deadLetter = Optional.empty();
  private long deadLetterMaxBytes = 64L * 1024 * 1024;
  private Duration timeout = TestTiming.seconds(5); // a bound: pushes answer in milliseconds
  private TimeWindowConfig windows = TimeWindowConfig.defaults();

  private LokiConfigs(URI url) {
    this.url = url;
  }

  /** Protobuf, tenant-1, default limits, pushing to {@code url}. */
  public static LokiConfigs to(URI url) {
    return new LokiConfigs(url);
  }

  public LokiConfigs json(boolean gzip) {
    this.encoding = Encoding.JSON;
    this.gzip = gzip;
    return this;
  }

  public LokiConfigs tenant(String tenant) {
    this.tenant = Optional.ofNullable(tenant);
    return this;
  }

  public LokiConfigs basic(String token) {
    this.basic = Optional.of(Secret.of(token));
    return this;
  }

  public LokiConfigs bearer(String token) {
    this.bearer = Optional.of(Secret.of(token));
    return this;
  }

  public LokiConfigs sendTenantHeader() {
    this.sendTenant = true;
    return this;
  }

  public LokiConfigs maxLineBytes(long bytes) {
    this.maxLineBytes = bytes;
    return this;
  }

  public LokiConfigs deadLetterMaxBytes(long bytes) {
    this.deadLetterMaxBytes = bytes;
    return this;
  }

  public LokiConfigs deadLetter(Path file) {
    this.deadLetter = Optional.of(file);
    return this;
  }

  public LokiConfigs timeout(Duration timeout) {
    this.timeout = timeout;
    return this;
  }

  public LokiConfigs windows(TimeWindowConfig windows) {
    this.windows = windows;
    return this;
  }

  public LokiSinkConfig build() {
    return new LokiSinkConfig(
        LokiSinkConfig.withPushPath(url),
        tenant,
        basic,
        bearer,
        sendTenant,
        encoding,
        gzip,
        Map.of(),
        Optional.empty(),
        Optional.empty(),
        Duration.ofSeconds(2),
        timeout,
        maxLineBytes,
        deadLetter,
        deadLetterMaxBytes,
        windows);
  }
}
