package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code limits}: the org's DailyApiRequests against sf2loki's share, read from the fake org. */
class DoctorLimitsTest {

  @TempDir Path dir;
  DoctorFixture fx;

  @BeforeEach
  void start() throws Exception {
    fx = new DoctorFixture(dir);
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  private JsonNode limits(String extra) throws Exception {
    return fx.checkOf(extra, "limits");
  }

  @Test
  void anOrgWithMoreCallsLeftThanTheSharePassesNamingBoth() throws Exception {
    fx.sf.apiUsage().limit(15_000).used(1_000);

    JsonNode limits = limits("");

    assertThat(limits.path("status").asText()).isEqualTo("PASS");
    assertThat(limits.path("detail").asText())
        .matches("13999 of 15000 calls left in the rolling 24h; .*")
        .endsWith("sf2loki's share (salesforce.api_share 0.2) is 3000 calls");
  }

  @Test
  void fewerCallsLeftThanTheConfiguredShareWarnsWithTheRemedy() throws Exception {
    fx.sf.apiUsage().limit(10_000).used(9_000);

    JsonNode limits = limits("salesforce.api_share = 0.25\n");

    assertThat(limits.path("status").asText()).isEqualTo("WARN");
    assertThat(limits.path("detail").asText())
        .contains(
            "999 of 10000 calls left",
            "fewer than the 2500 calls of sf2loki's share (salesforce.api_share 0.25)")
        .contains("other integrations use most of the allocation");
    assertThat(limits.path("remedy").asText())
        .contains("poll_interval", "salesforce.api_share", "ask Salesforce");
  }

  @Test
  void anOrgOutOfCallsFailsSayingIngestionPausesUntilTheWindowFrees() throws Exception {
    fx.sf.apiUsage().limit(500).used(500).enforce(true);

    JsonNode limits = limits("");

    assertThat(limits.path("status").asText()).isEqualTo("FAIL");
    assertThat(limits.path("detail").asText()).contains("403 REQUEST_LIMIT_EXCEEDED");
    assertThat(limits.path("remedy").asText())
        .contains("ingestion pauses until the rolling 24-hour window frees calls");
  }

  @Test
  void noCallsLeftFailsLikeARefusedCall() throws Exception {
    fx.sf.apiUsage().limit(500).used(499);

    JsonNode limits = limits("");

    assertThat(limits.path("status").asText()).isEqualTo("FAIL");
    assertThat(limits.path("detail").asText()).startsWith("the org is out of API calls now: 0 of");
  }

  @Test
  void anUnreadableLimitsResourceWarnsBecauseIngestionDoesNotDependOnIt() throws Exception {
    fx.sf.apiUsage().failLimits(true);

    JsonNode limits = limits("");

    assertThat(limits.path("status").asText()).isEqualTo("WARN");
    assertThat(limits.path("detail").asText()).startsWith("cannot read /limits").contains("500");
  }

  @Test
  void limitsPollingSwitchedOffIsASkipSayingSo() throws Exception {
    JsonNode limits = limits("salesforce.limits.enabled = false\n");

    assertThat(limits.path("status").asText()).isEqualTo("SKIP");
    assertThat(limits.path("detail").asText()).contains("salesforce.limits.enabled = false");
    assertThat(fx.sf.apiUsage().used()).isZero();
  }

  @Test
  void aFailedLoginSkipsTheCheck() throws Exception {
    JsonNode limits = fx.clientCredentials("wrong").checkOf("", "limits");

    assertThat(limits.path("status").asText()).isEqualTo("SKIP");
    assertThat(limits.path("detail").asText()).isEqualTo("needs auth, which is FAIL");
  }
}
