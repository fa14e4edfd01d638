package io.sf2loki.source.eventlogobjects;

import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.ClientCredentialsGrant;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.salesforce.testing.RecordingSourceContext;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Secret;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/** A fake Salesforce, a simulated clock and the eventlog_objects source wired to both. */
final class ObjectsHarness implements AutoCloseable {

  static final Instant START = Instant.parse("2026-06-30T12:00:00Z");
  private static final Pattern ID = Pattern.compile("\"Id\": \"([A-Za-z0-9]+)\"");

  final MutableClock clock = new MutableClock(START);
  final FakeSalesforce sf =
      FakeSalesforce.builder().clientId("cid").clientSecret("secret").clock(clock).build();
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final CloseableHttpClient http =
      SalesforceHttpClients.create(TestTiming.seconds(10), Optional.empty());
  final SalesforceRestClient rest =
      new SalesforceRestClient(
          http,
          new OAuthTokenProvider(
              http,
              sf.baseUrl(),
              new ClientCredentialsGrant("cid", Secret.of("secret")),
              Duration.ofHours(1),
              Clock.systemUTC(),
              Backoff.NONE,
              d -> {},
              metrics),
          "60.0",
          t -> {});
  Map<String, String> checkpoints = new HashMap<>();

  static EventLogObjectsConfig config(String body) {
    ConfigReader root =
        ConfigReader.of(
            ConfigFactory.parseString("sources.eventlog_objects {" + body + "}")
                .withFallback(ConfigFactory.parseResources("reference.conf"))
                .resolve());
    EventLogObjectsConfig config =
        EventLogObjectsConfig.bind(root.section("sources.eventlog_objects"));
    root.throwIfInvalid();
    return config;
  }

  /** Runs a source until {@code stopWhen}; the committed checkpoints carry over to the next run. */
  RecordingSourceContext run(String configBody, Predicate<RecordingSourceContext> stopWhen)
      throws Exception {
    EventLogObjectsConfig config = config(configBody);
    SourceEnvironment env =
        new SourceEnvironment(
            clock,
            () -> clock.instant().toEpochMilli() * 1_000_000L,
            new Random(1),
            new NamedThreadFactory("test"),
            metrics,
            Map.of("job", "sf2loki"));
    RecordingSourceContext ctx = new RecordingSourceContext(clock, checkpoints, stopWhen);
    try (EventLogObjectsSource source =
        EventLogObjectsSourceProvider.create(
            config, rest, clock::instant, env, () -> 0, () -> {})) {
      source.run(ctx);
    }
    checkpoints = new HashMap<>(ctx.committed());
    return ctx;
  }

  static List<String> ids(List<LogEntry> lines) {
    return lines.stream()
        .map(
            e -> {
              Matcher m = ID.matcher(e.line());
              return m.find() ? m.group(1) : "?";
            })
        .toList();
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
