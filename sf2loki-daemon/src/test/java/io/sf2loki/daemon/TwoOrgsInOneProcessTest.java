package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.DecodedStream;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.RecordedPush;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two orgs in one process, each a shard against its own fake org: both ship into one Loki, each
 * entry labelled with its org and org id, each org on its own tenant when configured; one org's
 * failure never stops the other, and readiness and the metrics say which org it is.
 */
class TwoOrgsInOneProcessTest {

  private static final String PROD_ID = "00D0000000PROD1AAA";
  private static final String EMEA_ID = "00D0000000EMEA1AAA";

  @TempDir Path dir;
  private FakeSalesforce prod;
  private FakeSalesforce emea;
  private FakeLoki loki;
  private final Instant hour =
      Instant.now().minus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);

  @BeforeEach
  void start() throws Exception {
    prod =
        FakeSalesforce.builder()
            .clientId("prod-app")
            .clientSecret("prod-secret")
            .orgId(PROD_ID)
            .build();
    emea =
        FakeSalesforce.builder()
            .clientId("emea-app")
            .clientSecret("emea-secret")
            .orgId(EMEA_ID)
            .build();
    loki = FakeLoki.start();
    prod.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 30);
    emea.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 20);
  }

  @AfterEach
  void stop() {
    loki.close();
    prod.close();
    emea.close();
  }

  private String config(String emeaSecret) {
    return """
        salesforce.auth_mode = client_credentials
        sources.eventlogfile {
          enabled = true, event_types = [Login], interval = Hourly, poll_interval = 1s, lookback = 12h
        }
        sink.loki { url = "%s", batch { flush_interval = 100ms } }
        state.file.path = "%s"
        service {
          shutdown_grace = %dms, failure_backoff_min = 100ms, failure_backoff_max = 200ms
          permanent_failure_attempts = 3
        }
        orgs = [
          { name = prod
            salesforce { login_url = "%s", client_id = prod-app, client_secret = prod-secret } }
          { name = emea
            salesforce { login_url = "%s", client_id = emea-app, client_secret = %s }
            sink.loki.tenant_id = emea-tenant }
        ]
        """
        .formatted(
            loki.baseUri(),
            dir.resolve("state.json"),
            TestTiming.seconds(5).toMillis(),
            prod.baseUrl(),
            emea.baseUrl(),
            emeaSecret);
  }

  private List<AcceptedEntry> entriesOf(String org) {
    return loki.entries().stream().filter(e -> org.equals(e.labels().get("org"))).toList();
  }

  /** The tenant header of every push that carried a stream of {@code org}. */
  private Set<String> tenantsOf(String org) {
    return loki.pushes().stream()
        .filter(
            p ->
                p.streams().stream()
                    .map(DecodedStream::labels)
                    .anyMatch(l -> org.equals(l.get("org"))))
        .map(RecordedPush::headers)
        .map(h -> h.getOrDefault("x-scope-orgid", "(none)"))
        .collect(Collectors.toSet());
  }

  @Test
  void bothOrgsShipEachEntryLabelledWithItsOrgAndOrgIdOnItsOwnTenant() throws Exception {
    try (OrgsRun run = OrgsRun.start(config("emea-secret"))) {
      await()
          .atMost(TestTiming.seconds(60))
          .until(() -> entriesOf("prod").size() == 30 && entriesOf("emea").size() == 20);

      assertThat(entriesOf("prod")).allMatch(e -> PROD_ID.equals(e.labels().get("sf_org_id")));
      assertThat(entriesOf("emea")).allMatch(e -> EMEA_ID.equals(e.labels().get("sf_org_id")));
      assertThat(tenantsOf("emea")).containsExactly("emea-tenant");
      assertThat(tenantsOf("prod")).containsExactly("(none)");
      await().atMost(TestTiming.seconds(10)).until(() -> run.get("/readyz").statusCode() == 200);
      assertThat(run.get("/readyz").body()).isEqualTo("ready\norg prod: ready\norg emea: ready\n");
      assertThat(run.gauge("sf2loki_leader", "prod")).isEqualTo(1);
      assertThat(run.gauge("sf2loki_leader", "emea")).isEqualTo(1);
      assertThat(run.get("/metrics").body())
          .contains("sf2loki_leader{org=\"emea\"} 1")
          .contains("sf2loki_leader{org=\"prod\"} 1");
    }
    assertThat(dir.resolve("state-prod.json")).exists();
    assertThat(dir.resolve("state-emea.json")).exists();
    assertThat(dir.resolve("state.json")).doesNotExist();
  }

  @Test
  void oneOrgsRejectedCredentialsNeverStopTheOtherAndReadinessAndMetricsSayWhich()
      throws Exception {
    try (OrgsRun run = OrgsRun.start(config("revoked"))) {
      await().atMost(TestTiming.seconds(60)).until(() -> entriesOf("prod").size() == 30);
      await()
          .atMost(TestTiming.seconds(30))
          .until(() -> run.ended("emea").orElse(null) instanceof EngineOutcome.Failed);

      assertThat(run.running()).as("the process goes on for prod").isTrue();
      HttpResponse<String> ready = run.get("/readyz");
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body())
          .isEqualTo(
              "degraded: org emea: failed: auth_rejected\n"
                  + "org prod: ready\n"
                  + "org emea: failed: auth_rejected\n");
      assertThat(run.gauge("sf2loki_salesforce_auth_up", "emea")).isZero();
      assertThat(run.gauge("sf2loki_salesforce_auth_up", "prod")).isEqualTo(1);
      assertThat(run.get("/metrics").body())
          .containsPattern(
              "sf2loki_engine_failures_total\\{kind=\"permanent\",org=\"emea\",reason=\"auth_rejected\"} 3");
      assertThat(entriesOf("emea")).isEmpty();

      // prod keeps shipping what its org produces after emea ended
      prod.addLogFile(
          "Login", "Hourly", hour.plus(1, ChronoUnit.HOURS), hour.plus(130, ChronoUnit.MINUTES), 5);
      await().atMost(TestTiming.seconds(60)).until(() -> entriesOf("prod").size() == 35);
      assertThat(run.get("/healthz").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void whileAnOrgBacksOffFromAFailureReadinessNamesItAndTheOtherOrgStaysReady() throws Exception {
    String hocon =
        config("revoked")
            .replace("permanent_failure_attempts = 3", "permanent_failure_attempts = 100");
    try (OrgsRun run = OrgsRun.start(hocon)) {
      await().atMost(TestTiming.seconds(60)).until(() -> entriesOf("prod").size() == 30);
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> run.get("/readyz").body().startsWith("degraded: org emea: auth_rejected"));

      assertThat(run.get("/readyz").body()).contains("\norg prod: ready\n");
      assertThat(run.ended("emea")).isEmpty();
    }
  }
}
