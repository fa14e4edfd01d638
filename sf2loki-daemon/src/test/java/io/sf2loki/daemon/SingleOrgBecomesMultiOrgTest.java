package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single-org deployment becomes multi-org without re-ingesting: its org, configured as the first
 * of {@code orgs}, resumes from the single-org document's positions, which its first commit takes
 * over into the org's own document; the second org starts from its own lookback.
 */
class SingleOrgBecomesMultiOrgTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private FakeSalesforce prod;
  private FakeSalesforce emea;
  private FakeLoki loki;
  private final Instant hour =
      Instant.now().minus(4, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);

  @BeforeEach
  void start() throws Exception {
    prod = FakeSalesforce.builder().clientId("prod-app").clientSecret("prod-secret").build();
    emea =
        FakeSalesforce.builder()
            .clientId("emea-app")
            .clientSecret("emea-secret")
            .orgId("00D0000000EMEA1AAA")
            .build();
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
    prod.close();
    emea.close();
  }

  private String common() {
    return """
        salesforce.auth_mode = client_credentials
        sources.eventlogfile {
          enabled = true, event_types = [Login], interval = Hourly, poll_interval = 1s, lookback = 12h
        }
        sink.loki { url = "%s", batch { flush_interval = 100ms } }
        state.file.path = "%s"
        service.shutdown_grace = %dms
        """
        .formatted(loki.baseUri(), dir.resolve("state.json"), TestTiming.seconds(5).toMillis());
  }

  private String singleOrg() {
    return common()
        + """
        salesforce { login_url = "%s", client_id = prod-app, client_secret = prod-secret }
        """
            .formatted(prod.baseUrl());
  }

  private String multiOrg() {
    return common()
        + """
        orgs = [
          { name = prod
            salesforce { login_url = "%s", client_id = prod-app, client_secret = prod-secret } }
          { name = emea
            salesforce { login_url = "%s", client_id = emea-app, client_secret = emea-secret } }
        ]
        """
            .formatted(prod.baseUrl(), emea.baseUrl());
  }

  private long linesOf(String org) {
    return loki.entries().stream()
        .filter(
            e -> org == null ? !e.labels().containsKey("org") : org.equals(e.labels().get("org")))
        .count();
  }

  private Map<String, String> document(String name) throws IOException {
    Path file = dir.resolve(name);
    return Files.exists(file)
        ? JSON.readValue(file.toFile(), new TypeReference<Map<String, String>>() {})
        : Map.of();
  }

  @Test
  void theFirstOrgResumesFromTheSingleOrgPositionsAndTakesThemOverAtItsFirstCommit()
      throws Exception {
    prod.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 30);
    emea.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 20);
    try (OrgsRun single = OrgsRun.start(singleOrg())) {
      await().atMost(TestTiming.seconds(60)).until(() -> linesOf(null) == 30);
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> document("state.json").containsKey("eventlogfile:Login"));
      assertThat(single.running()).isTrue();
    }
    String singleOrgPosition = document("state.json").get("eventlogfile:Login");

    try (OrgsRun multi = OrgsRun.start(multiOrg())) {
      await().atMost(TestTiming.seconds(60)).until(() -> linesOf("emea") == 20);
      // a new file of prod's: only its rows are shipped, nothing of the first file again
      prod.addLogFile(
          "Login", "Hourly", hour.plus(1, ChronoUnit.HOURS), hour.plus(130, ChronoUnit.MINUTES), 5);
      await().atMost(TestTiming.seconds(60)).until(() -> linesOf("prod") == 5);
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> document("state-prod.json").containsKey("__migrated_from__"));
      await("two more poll cycles, nothing shipped twice")
          .during(java.time.Duration.ofSeconds(2))
          .atMost(TestTiming.seconds(5))
          .until(() -> linesOf("prod") == 5 && linesOf("emea") == 20);
      assertThat(multi.running()).isTrue();
    }
    Map<String, String> prodDocument = document("state-prod.json");
    assertThat(prodDocument)
        .containsEntry("__migrated_from__", dir.resolve("state.json").toString())
        .containsKey("org=prod:eventlogfile:Login")
        .doesNotContainKey("eventlogfile:Login");
    assertThat(prodDocument.get("org=prod:eventlogfile:Login")).isNotEqualTo(singleOrgPosition);
    assertThat(document("state-emea.json"))
        .containsKey("org=emea:eventlogfile:Login")
        .doesNotContainKey("org=prod:eventlogfile:Login");
    assertThat(document("state.json").get("eventlogfile:Login"))
        .as("the legacy document is only read")
        .isEqualTo(singleOrgPosition);
  }
}
