package io.sf2loki.source.eventlogfile;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.ClientCredentialsGrant;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ServerClock;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.spi.CategoryOwnership;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Secret;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/** The fake org plus the real client stack, and sources built on it. */
final class ElfFixture implements AutoCloseable {

  final FakeSalesforce sf;
  final MutableClock clock;

  /**
   * False: the REST client's {@code Date} samples go to a clock of their own, so the source's
   * Salesforce clock is {@link #clock} alone (a simulated day, whose clock is not the {@code Date}
   * header's real time).
   */
  boolean sampleServerClock = true;

  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  CategoryOwnership ownership = CategoryOwnership.unrestricted();
  ApiBudget budget = ApiBudget.unmetered();
  final CloseableHttpClient http =
      SalesforceHttpClients.create(TestTiming.seconds(10), Optional.empty());

  ElfFixture() {
    this(FakeSalesforce.builder().clientId("cid").clientSecret("secret").build());
  }

  ElfFixture(FakeSalesforce sf) {
    this(sf, new MutableClock(Instant.now()));
  }

  private ElfFixture(FakeSalesforce sf, MutableClock clock) {
    this.sf = sf;
    this.clock = clock;
  }

  /** A fake org whose notion of now (file visibility) is {@code clock}, as the source's is. */
  static ElfFixture onClock(MutableClock clock) {
    return new ElfFixture(
        FakeSalesforce.builder().clientId("cid").clientSecret("secret").clock(clock).build(),
        clock);
  }

  /** Binds {@code hocon} (over the defaults) as {@code sources.eventlogfile}; it must be valid. */
  static EventLogFileConfig bind(String hocon) {
    ConfigReader r =
        new ConfigLoader(ElfFixture.class.getClassLoader(), Map.of())
            .loadString(hocon)
            .reader()
            .section("sources.eventlogfile");
    EventLogFileConfig config = EventLogFileConfig.bind(r);
    r.throwIfInvalid();
    return config;
  }

  static EventLogFileConfig config(List<String> types, int pageSize, Duration settle) {
    return new EventLogFileConfig(
        types,
        "Hourly",
        Duration.ofMinutes(10),
        Duration.ofDays(2),
        settle,
        pageSize,
        2,
        Duration.ofHours(24),
        "TIMESTAMP_DERIVED",
        64 * 1024,
        Optional.empty());
  }

  static EventLogFileConfig config(List<String> types) {
    return config(types, 1000, Duration.ZERO);
  }

  EventLogFileSource source(EventLogFileConfig config) {
    return source(config, config.spoolDir());
  }

  EventLogFileSource source(EventLogFileConfig config, Optional<Path> spoolDir) {
    EventLogFileConfig c = copy(config, spoolDir, config.window());
    ServerClock serverClock = new ServerClock(clock);
    OAuthTokenProvider tokens =
        new OAuthTokenProvider(
            http,
            sf.baseUrl(),
            new ClientCredentialsGrant("cid", Secret.of("secret")),
            Duration.ofHours(1),
            clock,
            Backoff.NONE,
            d -> {},
            metrics);
    ServerClock sampled = sampleServerClock ? serverClock : new ServerClock(clock);
    SalesforceRestClient rest =
        new SalesforceRestClient(http, tokens, "60.0", sampled, metrics, budget);
    SourceEnvironment env =
        new SourceEnvironment(
            clock,
            Ticker.SYSTEM,
            new Random(1),
            new NamedThreadFactory("test"),
            metrics,
            Map.of("job", "sf2loki"),
            ownership);
    return EventLogFileSourceProvider.create(c, rest, serverClock, env, () -> {}, budget);
  }

  /** {@code config} bounded by {@code window}. */
  static EventLogFileConfig bounded(EventLogFileConfig config, ElfWindow window) {
    return copy(config, config.spoolDir(), window);
  }

  private static EventLogFileConfig copy(
      EventLogFileConfig config, Optional<Path> spoolDir, ElfWindow window) {
    return new EventLogFileConfig(
        config.eventTypes(),
        config.interval(),
        config.pollInterval(),
        config.lookback(),
        config.settleWindow(),
        config.pageSize(),
        config.concurrency(),
        config.downloadMaxAge(),
        config.timestampColumn(),
        config.spoolMemory(),
        spoolDir,
        config.shaping(),
        config.typeShaping(),
        window);
  }

  /** The lines {@code files}' rows become, in file order. */
  List<String> expectedLines(LogFileSpec... files) {
    List<String> lines = new ArrayList<>();
    for (LogFileSpec f : files) {
      LogFileCsv csv = sf.csv(f);
      for (long i = 0; i < f.rows(); i++) {
        lines.add(CanonicalJson.write(csv.expectedRow(i)));
      }
    }
    return lines;
  }

  /** A file of {@code rows} rows created {@code minutesAgo} before the real now. */
  LogFileSpec file(String type, int minutesAgo, long rows) {
    Instant created = Instant.now().minus(Duration.ofMinutes(minutesAgo));
    return sf.addLogFile(
        type, "Hourly", created.truncatedTo(java.time.temporal.ChronoUnit.HOURS), created, rows);
  }

  double counter(String name, String... tags) {
    var c = metrics.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  @Override
  public void close() throws java.io.IOException {
    sf.close();
    http.close();
  }
}
