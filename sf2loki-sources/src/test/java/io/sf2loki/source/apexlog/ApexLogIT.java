package io.sf2loki.source.apexlog;

import static io.sf2loki.salesforce.testing.RecordingSourceContext.afterWaits;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.sf2loki.testkit.salesforce.ApexLogs;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.Fault;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ApexLogIT {

  static final Instant START = Instant.parse("2026-06-30T12:00:00Z");

  final MutableClock clock = new MutableClock(START);
  final FakeSalesforce sf =
      FakeSalesforce.builder().clientId("cid").clientSecret("secret").clock(clock).build();
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final CloseableHttpClient http =
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
  final ApexLogs logs = sf.apexLogs();
  Map<String, String> checkpoints = new HashMap<>();

  @AfterEach
  void close() throws Exception {
    sf.close();
    http.close();
  }

  RecordingSourceContext run(String body, Predicate<RecordingSourceContext> stop) throws Exception {
    ConfigReader root =
        ConfigReader.of(
            ConfigFactory.parseString("sources.apexlog {" + body + "}")
                .withFallback(ConfigFactory.parseResources("reference.conf"))
                .resolve());
    ApexLogConfig config = ApexLogConfig.bind(root.section("sources.apexlog"));
    root.throwIfInvalid();
    SourceEnvironment env =
        new SourceEnvironment(
            clock,
            () -> clock.instant().toEpochMilli() * 1_000_000L,
            new Random(1),
            new NamedThreadFactory("test"),
            metrics,
            Map.of());
    RecordingSourceContext ctx = new RecordingSourceContext(clock, checkpoints, stop);
    try (ApexLogSource source =
        ApexLogSourceProvider.create(config, rest, clock::instant, env, () -> 0, () -> {})) {
      source.run(ctx);
    }
    checkpoints = new HashMap<>(ctx.committed());
    return ctx;
  }

  List<ApexLogs.Log> three() {
    return List.of(
        logs.add(
            START.minusSeconds(300), "dev@acme.com", "Success", "USER_DEBUG|mail ann@example.com"),
        logs.add(START.minusSeconds(200), "ops@acme.com", "Assertion Failed", "FATAL_ERROR boom"),
        logs.add(START.minusSeconds(100), "dev@acme.com", "Success", "CODE_UNIT_FINISHED"));
  }

  double counter(String name, String... tags) {
    var c = metrics.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void eachLogShipsItsBodyWithMetadataOnceAcrossRestarts() throws Exception {
    List<ApexLogs.Log> l = three();

    RecordingSourceContext ctx = run("", afterWaits(2));
    RecordingSourceContext again = run("", afterWaits(1));

    assertThat(ctx.lines())
        .extracting(LogEntry::line)
        .containsExactly(l.get(0).body(), l.get(1).body(), l.get(2).body());
    LogEntry second = ctx.lines().get(1);
    assertThat(second.labels())
        .containsEntry("source", "apexlog")
        .containsEntry("event_type", "apexlog");
    assertThat(second.metadata())
        .containsEntry("Id", l.get(1).id())
        .containsEntry("Status", "Assertion Failed")
        .containsEntry("level", "warn")
        .containsEntry("StartTime", "2026-06-30T11:56:40.000+0000")
        .doesNotContainKey("body_skipped");
    assertThat(second.timestampNanos())
        .isEqualTo(START.minusSeconds(200).toEpochMilli() * 1_000_000L);
    assertThat(again.lines()).isEmpty();
    assertThat(counter("sf2loki_apexlog_logs_ingested")).isEqualTo(3);
  }

  @Test
  void aFailedBodyHoldsTheCursorUntilTheNextCycleDeliversIt() throws Exception {
    List<ApexLogs.Log> l = three();
    logs.failBody(l.get(1).id(), 500, 1);

    RecordingSourceContext first = run("", afterWaits(1));
    assertThat(first.lines()).extracting(LogEntry::line).containsExactly(l.get(0).body());
    assertThat(counter("sf2loki_apexlog_download_errors", "reason", "HTTP 500")).isEqualTo(1);

    RecordingSourceContext second = run("", afterWaits(1));
    assertThat(second.lines())
        .extracting(LogEntry::line)
        .containsExactly(l.get(1).body(), l.get(2).body());
  }

  @Test
  void afterTheLastAttemptALogShipsAsMarkedMetadataAndLaterLogsFollow() throws Exception {
    List<ApexLogs.Log> l = three();
    logs.failBody(l.get(1).id(), 503, 100);

    RecordingSourceContext ctx = run("max_body_attempts = 3", afterWaits(4));

    assertThat(ctx.lines()).hasSize(3);
    LogEntry skipped = ctx.lines().get(1);
    assertThat(skipped.metadata())
        .containsEntry("body_skipped", "true")
        .containsEntry("body_skip_reason", "download_error");
    assertThat(skipped.line())
        .startsWith("{\"Application\": \"Browser\"")
        .contains(l.get(1).id())
        .doesNotContain("attributes");
    assertThat(logs.bodyRequests(l.get(1).id())).isEqualTo(3);
    assertThat(counter("sf2loki_apexlog_bodies_skipped", "reason", "download_error")).isEqualTo(1);
  }

  @Test
  void aPurgedLogShipsMetadataAtOnceAndAnOversizedOneIsNotDownloaded() throws Exception {
    List<ApexLogs.Log> l = three();
    logs.purgeBody(l.get(2).id());

    RecordingSourceContext ctx = run("max_body_bytes = 18", afterWaits(1));

    assertThat(ctx.lines())
        .extracting(e -> e.metadata().get("body_skip_reason"))
        .containsExactly("size", null, "download_error");
    assertThat(logs.bodyRequests(l.get(0).id())).isZero();
    assertThat(counter("sf2loki_apexlog_bodies_skipped", "reason", "size")).isEqualTo(1);
  }

  @Test
  void transformsRedactTheBodyOrDropItWithoutDownloading() throws Exception {
    List<ApexLogs.Log> l = three();
    RecordingSourceContext redacted =
        run(
            "transforms = [{action = regex_replace, fields = [Body], pattern = \"[a-z]+@[a-z.]+\", replacement = \"<email>\"}]",
            afterWaits(1));
    assertThat(redacted.lines().get(0).line()).isEqualTo("USER_DEBUG|mail <email>");

    checkpoints.clear();
    RecordingSourceContext dropped =
        run("transforms = [{action = drop_field, fields = [Body]}]", afterWaits(1));
    assertThat(dropped.lines()).hasSize(3).allMatch(e -> e.line().startsWith("{"));
    assertThat(logs.bodyRequests(l.get(2).id())).isEqualTo(1); // only the first run downloaded it
  }

  @Test
  void aThrottledBodyAbortsTheCycleAndIsCountedAsApexlogBody() throws Exception {
    rest.getJson(
        rest.dataPath("limits")); // mint the token first: ANY faults hit the token call too
    List<ApexLogs.Log> l = three();
    // the listing takes the first fault aimed at it; the body download then gets the throttle
    sf.inject(Fault.latency(Fault.Route.QUERY, Duration.ZERO));
    sf.inject(Fault.requestLimitExceeded(Fault.Route.ANY));

    RecordingSourceContext first = run("", afterWaits(1));
    RecordingSourceContext second = run("", afterWaits(1));

    assertThat(
            counter("sf2loki_salesforce_api_throttled", "api", "soql")
                + counter("sf2loki_salesforce_api_throttled", "api", "apexlog_body"))
        .isEqualTo(1);
    assertThat(first.lines().size() + second.lines().size()).isEqualTo(3);
    assertThat(second.lines()).extracting(LogEntry::line).endsWith(l.get(2).body());
  }

  @Test
  void theUserFilterAndCursorUseTheCatalogueShape() throws Exception {
    three();
    RecordingSourceContext ctx = run("users = [\"dev@acme.com\"]", afterWaits(2));
    assertThat(ctx.lines()).hasSize(2);
    assertThat(sf.queries().get(0))
        .isEqualTo(
            "SELECT Id, LogUserId, LogLength, Operation, Request, Status, StartTime, Application,"
                + " DurationMilliseconds, Location FROM ApexLog WHERE StartTime >= 2026-06-30T11:00:00.000Z"
                + " AND LogUser.Username IN ('dev@acme.com') ORDER BY StartTime ASC, Id ASC LIMIT 200");
    assertThat(sf.queries().get(1))
        .contains(
            "(StartTime > 2026-06-30T11:58:20.000Z OR (StartTime = 2026-06-30T11:58:20.000Z AND Id > '");
  }
}
