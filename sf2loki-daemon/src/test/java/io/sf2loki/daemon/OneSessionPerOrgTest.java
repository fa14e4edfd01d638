package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.Fault;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One token serves every source of an org, and every replica logs in at start: the standby of an HA
 * pair authenticates too, so bad credentials show on it before it ever leads.
 */
class OneSessionPerOrgTest {

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
    salesforce.close();
  }

  private String config(String more) {
    return OrgRunConfig.hocon(salesforce, loki, dir.resolve("state.json"), more);
  }

  @Test
  void everySourceOfTheOrgSharesOneToken() throws Exception {
    Instant now = Instant.now();
    salesforce.apexLogs().add(now.minus(5, ChronoUnit.MINUTES), "dev@example.com", "Success", "b");
    String more =
        """
        sources.eventlog_objects {
          enabled = true
          objects = [{name = SetupAuditTrail, settle_window = 0, poll_interval = 1s, lookback = 1h}]
        }
        sources.apexlog { enabled = true, poll_interval = 1s, lookback = 1h }
        """;
    try (ComposedRun run = ComposedRun.start(config(more))) {
      // each of the three sources has listed or polled at least twice
      await()
          .atMost(TestTiming.seconds(60))
          .until(
              () ->
                  salesforce.queries().stream().filter(q -> q.contains("EventLogFile")).count() >= 2
                      && salesforce.queries().stream()
                              .filter(q -> q.contains("SetupAuditTrail"))
                              .count()
                          >= 2
                      && salesforce.queries().stream().filter(q -> q.contains("ApexLog")).count()
                          >= 2);

      assertThat(run.get("/readyz").statusCode()).isEqualTo(200);
      assertThat(salesforce.stats().requests(Fault.Route.TOKEN)).isEqualTo(1);
    }
  }

  @Test
  void theStandbyLogsInToo() throws Exception {
    String lease = "coordinate { type = file_lease, file_lease { path = \"%s\", holder_id = %s } }";
    Path path = dir.resolve("leader.lease");
    try (ComposedRun a = ComposedRun.start(config(lease.formatted(path, "a")))) {
      await().atMost(TestTiming.seconds(60)).until(() -> a.get("/readyz").statusCode() == 200);
      try (ComposedRun b = ComposedRun.start(config(lease.formatted(path, "b")))) {
        await()
            .atMost(TestTiming.seconds(60))
            .until(() -> b.gauge("sf2loki_salesforce_auth_up") == 1);

        assertThat(b.get("/readyz").body()).isEqualTo("standby\n");
        assertThat(salesforce.stats().requests(Fault.Route.TOKEN)).isEqualTo(2);
        assertThat(b.gauge("sf2loki_leader")).isZero();
      }
    }
  }
}
