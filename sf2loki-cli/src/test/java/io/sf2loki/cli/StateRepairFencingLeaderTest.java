package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code state set --fence-leader} against a running pair in one JVM (file_lease, and k8s_lease on
 * the fabric8 mock API server): the repair lands at a higher epoch, the leader's stale position is
 * never written back, the pair leads again and resumes from the repaired value, and nothing is
 * lost. It takes effect at the leader's next commit or, on a leader that commits nothing, at its
 * next fence check, within about a ttl.
 */
class StateRepairFencingLeaderTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OBJECT = "Repair_Event__c";
  private static final String KEY = "eventlog_objects:" + OBJECT;
  private static final Duration TTL = Duration.ofSeconds(3);

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;
  private Path state;
  private Instant base;

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    loki = FakeLoki.start();
    state = dir.resolve("state.json");
    base = Instant.now().minus(30, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
    salesforce.eventObjects().define(OBJECT, "CreatedDate", false);
    for (int i = 0; i < 20; i++) {
      salesforce.eventObjects().add(OBJECT, base.plusSeconds(i));
    }
  }

  @AfterEach
  void stop() {
    loki.close();
    salesforce.close();
  }

  /** The lease the pair shares: a file, or a Kubernetes Lease on the fabric8 mock API server. */
  private String coordinator = "";

  private void useFileLease() {
    coordinator =
        "coordinate {\n  type = file_lease\n  file_lease { path = \""
            + dir.resolve("leader.lease")
            + "\", holder_id = HOLDER, ttl = 3s, renew_interval = 1s }\n}\n";
  }

  private void useK8sLease(KubernetesMockServer server) throws Exception {
    Path kubeconfig =
        Files.writeString(
            dir.resolve("kubeconfig"),
            """
            apiVersion: v1
            kind: Config
            clusters: [{name: mock, cluster: {server: "%s"}}]
            users: [{name: test, user: {token: test}}]
            contexts: [{name: mock, context: {cluster: mock, user: test, namespace: default}}]
            current-context: mock
            """
                .formatted(server.url("/").replaceAll("/$", "")));
    coordinator =
        "coordinate {\n  type = k8s_lease\n  k8s_lease { kubeconfig = \""
            + kubeconfig
            + "\", identity = HOLDER, lease_duration = 3s, renew_interval = 1s }\n}\n";
  }

  private String config(String holder) {
    return """
        salesforce {
          auth_mode = client_credentials
          login_url = "%s"
          client_id = cid
          client_secret = secret
        }
        sources.eventlog_objects {
          enabled = true
          objects = [{name = %s, timestamp_field = CreatedDate, big_object = false}]
          poll_interval = 500ms
          lookback = 1h
          settle_window = 0s
        }
        sink.loki.url = "%s"
        state { store = file, file.path = "%s" }
        service.shutdown_grace = 2s
        """
            .formatted(salesforce.baseUrl(), OBJECT, loki.baseUri(), state)
        + coordinator.replace("HOLDER", holder);
  }

  private Map<String, String> document() throws Exception {
    try {
      return JSON.readValue(Files.readString(state), new TypeReference<Map<String, String>>() {});
    } catch (NoSuchFileException e) {
      return Map.of();
    }
  }

  private static long epoch(Map<String, String> document) {
    return Long.parseLong(document.getOrDefault("__fence_epoch__", "0"));
  }

  @Test
  void aRepairWhileAFileLeasePairRunsFencesTheLeaderWhichResumesFromTheRepairedValue()
      throws Exception {
    useFileLease();
    repairWhileThePairRuns(Leader.COMMITS);
  }

  @Test
  void aRepairWhileAK8sLeasePairRunsFencesTheLeaderWhichResumesFromTheRepairedValue()
      throws Exception {
    withK8sLease(() -> repairWhileThePairRuns(Leader.COMMITS));
  }

  @Test
  void aRepairOfAnIdleFileLeaseLeaderTakesEffectWithinAboutATtl() throws Exception {
    useFileLease();
    repairWhileThePairRuns(Leader.IDLE);
  }

  @Test
  void aRepairOfAnIdleK8sLeaseLeaderTakesEffectWithinAboutATtl() throws Exception {
    withK8sLease(() -> repairWhileThePairRuns(Leader.IDLE));
  }

  /** After the repair the leader's source delivers a new event (a commit), or nothing at all. */
  private enum Leader {
    COMMITS,
    IDLE
  }

  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  private void withK8sLease(Body body) throws Exception {
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(Collections.emptyList()),
            false);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    try {
      useK8sLease(server);
      body.run();
    } finally {
      server.destroy();
    }
  }

  private void repairWhileThePairRuns(Leader leader) throws Exception {
    int expected = leader == Leader.COMMITS ? 21 : 20;
    Path cliConfig = Files.writeString(dir.resolve("cli.conf"), config("cli"));
    try (LivePair pair = LivePair.start(List.of(config("a"), config("b")))) {
      await("the pair ingests the first 20 events")
          .atMost(TestTiming.seconds(60))
          .until(() -> loki.entries().size() == 20 && document().containsKey(KEY));
      long before = epoch(document());

      String rewound = "{\"ids\":[],\"last_ts\":\"" + base.plusMillis(9_500) + "\"}";
      CliRun repair =
          CliRun.of(
              "--config", cliConfig.toString(), "state", "set", KEY, rewound, "--fence-leader");
      assertThat(repair.exitCode()).as(repair.err()).isZero();
      Map<String, String> repaired = document();
      long repairEpoch = epoch(repaired);
      assertThat(repairEpoch).isGreaterThan(before);
      assertThat(repaired).containsEntry(KEY, rewound);
      assertThat(repair.out())
          .contains("sf2loki: set " + KEY)
          .contains("the store's fence epoch is now " + repairEpoch);

      // Watch every document from here on: the old leader (epoch < repairEpoch) must never
      // write, so the key leaves the repaired value only in a document of a newer term.
      List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
      AtomicBoolean watching = new AtomicBoolean(true);
      Thread watcher =
          new Thread(
              () -> {
                while (watching.get()) {
                  try {
                    seen.add(document());
                  } catch (Exception e) {
                    // a read racing the store's rename: the next one sees the document
                  }
                  LockSupport.parkNanos(2_000_000); // sample, without taking a core
                }
              });
      watcher.start();
      if (leader == Leader.COMMITS) {
        salesforce.eventObjects().add(OBJECT, base.plusSeconds(20)); // the leader's next commit
      }

      // An idle leader commits nothing: only its fence check (at each renewal, 1s) sees the
      // repair. A bound of a few ttls (3s), scaled for slow machines.
      await("a leader of a newer term resumes from the repaired value and re-reads 10 events")
          .atMost(leader == Leader.IDLE ? TestTiming.seconds(15) : TestTiming.seconds(30))
          .until(
              () ->
                  pair.leaderEpoch().orElse(0L) > repairEpoch
                      && loki.entries().size() == expected
                      && loki.stats().duplicates() >= 10);
      watching.set(false);
      watcher.join();

      assertThat(seen)
          .allSatisfy(
              d -> {
                assertThat(epoch(d)).isGreaterThanOrEqualTo(repairEpoch);
                if (!rewound.equals(d.get(KEY))) {
                  assertThat(epoch(d)).isGreaterThan(repairEpoch);
                }
              });
      assertThat(pair.leaders()).isEqualTo(1);
      assertThat(pair.allRunning()).isTrue();
    }
    assertThat(loki.lines()).hasSize(expected).doesNotHaveDuplicates();
  }

  @Test
  void withoutTheFlagARunningLeaderStillRefusesTheRepair() throws Exception {
    useFileLease();
    Path cliConfig = Files.writeString(dir.resolve("cli.conf"), config("cli"));
    try (LivePair pair = LivePair.start(List.of(config("a")))) {
      await()
          .atMost(TestTiming.seconds(60))
          .until(() -> pair.leaders() == 1 && document().containsKey(KEY));
      String value = document().get(KEY);

      CliRun refused =
          CliRun.of("--config", cliConfig.toString(), "state", "set", KEY, "2026-01-01T00:00:00Z");

      assertThat(refused.exitCode()).isEqualTo(1);
      assertThat(refused.err()).contains("is held by a").contains("--fence-leader");
      assertThat(document()).containsEntry(KEY, value);
    }
  }

  @Test
  void underNoopTheFlagIsRefusedWithTheReason() throws Exception {
    coordinator = "coordinate.type = noop\n";
    Path cliConfig = Files.writeString(dir.resolve("cli.conf"), config("cli"));
    CliRun refused =
        CliRun.of("--config", cliConfig.toString(), "state", "delete", KEY, "--fence-leader");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).contains("--fence-leader needs a lease coordinator");
  }
}
