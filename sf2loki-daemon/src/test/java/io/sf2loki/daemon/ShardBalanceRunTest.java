package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.coordinate.filelease.FileLeaseRoster;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas of a two-org deployment composed as the daemon composes them (one shard balance per
 * process, shared by both orgs' coordinators), over file_lease in one directory: the second replica
 * gets its share by a graceful hand-over, and on SIGTERM hands it back.
 */
class ShardBalanceRunTest {

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("app").clientSecret("secret").build();
    loki = FakeLoki.start();
    Instant hour = Instant.now().minus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
    salesforce.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 5);
  }

  @AfterEach
  void stop() {
    loki.close();
    salesforce.close();
  }

  private String replica(String holder) {
    return """
        salesforce { auth_mode = client_credentials, login_url = "%s", client_id = app
                     client_secret = secret }
        sources.eventlogfile {
          enabled = true, event_types = [Login], interval = Hourly, poll_interval = 1s, lookback = 12h
        }
        sink.loki { url = "%s", batch { flush_interval = 100ms } }
        state.file.path = "%s"
        service.shutdown_grace = %dms
        coordinate {
          type = file_lease
          file_lease { path = "%s", holder_id = %s, ttl = 3s, renew_interval = 1s }
        }
        orgs = [ { name = prod, salesforce {} }, { name = emea, salesforce {} } ]
        """
        .formatted(
            salesforce.baseUrl(),
            loki.baseUri(),
            dir.resolve("state.json"),
            TestTiming.seconds(5).toMillis(),
            dir.resolve("leader.lease"),
            holder);
  }

  @Test
  void aSecondReplicaGetsOneOrgByHandOverAndHandsItBackOnSigterm() throws Exception {
    try (OrgsRun a = OrgsRun.start(replica("a"))) {
      await().atMost(TestTiming.seconds(30)).until(() -> a.gauge("sf2loki_shards_held") == 2);
      assertThat(a.gauge("sf2loki_shard_cap")).isEqualTo(2);
      Path roster = FileLeaseRoster.pathFor(dir.resolve("leader.lease"));
      assertThat(Files.readString(roster)).contains("\"a\"");

      try (OrgsRun b = OrgsRun.start(replica("b"))) {
        await()
            .atMost(TestTiming.seconds(30))
            .until(
                () -> a.gauge("sf2loki_shards_held") == 1 && b.gauge("sf2loki_shards_held") == 1);
        assertThat(a.gauge("sf2loki_shard_cap")).isEqualTo(1);
        assertThat(a.gauge("sf2loki_shard_replicas")).isEqualTo(2);
        assertThat(a.counter("sf2loki_shard_handovers_total", "reason", "balance")).isEqualTo(1);
        assertThat(a.get("/metrics").body())
            .contains("sf2loki_shards_held 1")
            .contains("sf2loki_shard_handovers_total{reason=\"balance\"} 1");
      }
      await().atMost(TestTiming.seconds(30)).until(() -> a.gauge("sf2loki_shards_held") == 2);
      assertThat(Files.readString(roster)).doesNotContain("\"b\"");
    }
  }
}
