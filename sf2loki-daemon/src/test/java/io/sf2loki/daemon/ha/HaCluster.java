package io.sf2loki.daemon.ha;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The world the HA tests run in: a fake Salesforce org producing EventLogFiles continuously, a fake
 * Loki, one directory holding the shared checkpoint file and lease file, and the daemon processes
 * launched against them.
 */
final class HaCluster implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration POLL = Duration.ofMillis(100);

  /** A daemon's config file and its HTTP port. */
  record Node(String name, Path config, int httpPort) {}

  private final Path dir;
  private final FakeSalesforce salesforce;
  private final FakeLoki loki;
  private final List<DaemonProcess> processes = new ArrayList<>();
  private final Map<Integer, FakeSalesforce> extraOrgs = new TreeMap<>();
  private final DeliveredRows delivered;

  private HaCluster(Path dir, FakeSalesforce salesforce, FakeLoki loki) {
    this.dir = dir;
    this.salesforce = salesforce;
    this.loki = loki;
    this.delivered = new DeliveredRows(loki);
  }

  /**
   * Starts the fakes; the org produces a Login and an API file of 10 rows every second. The shared
   * files live on tmpfs ({@code /dev/shm}) when there is one, else in {@code fallback}: a claim
   * that takes longer than the verify pause (100 ms at a 1 s renew interval) is abandoned by
   * design, and fsync on a busy build machine's disk can take that long.
   */
  static HaCluster start(Path fallback) throws IOException {
    Path shm = Path.of("/dev/shm");
    Path dir =
        Files.isDirectory(shm) && Files.isWritable(shm)
            ? Files.createTempDirectory(shm, "sf2loki-ha-")
            : fallback;
    // Generated rows cover the previous hour; a replay right after an hour boundary would be
    // "too far behind" under Loki's 1h out-of-order window, so widen it: these tests are about
    // leadership, not Loki's ordering rules.
    LokiLimits d = LokiLimits.defaults();
    LokiLimits limits =
        new LokiLimits(
            d.maxLineBytes(),
            d.maxLabelNamesPerSeries(),
            d.maxLabelNameLength(),
            d.maxLabelValueLength(),
            d.maxStructuredMetadataBytes(),
            d.maxStructuredMetadataEntries(),
            d.rejectOldSamplesMaxAge(),
            d.creationGracePeriod(),
            Duration.ofDays(2),
            d.maxRequestBytes());
    FakeLoki loki = FakeLoki.start(0, limits, Clock.systemUTC());
    FakeSalesforce salesforce =
        FakeSalesforce.builder().clientId("ha-client").clientSecret("ha-secret").build();
    salesforce.startActivity(Duration.ofSeconds(1), List.of("Login", "API"), 10);
    return new HaCluster(dir, salesforce, loki);
  }

  Path statePath() {
    return dir.resolve("state.json");
  }

  Path leasePath() {
    return dir.resolve("leader.lease");
  }

  FakeLoki loki() {
    return loki;
  }

  /** The sources of {@link #node(String, Duration, Duration)}: the org's EventLogFiles. */
  static final String EVENT_LOG_FILES =
      """
      sources.eventlogfile { enabled = true, event_types = ["*"], poll_interval = 1s
                             settle_window = 0s, lookback = 3h }
      """;

  /** Writes the config of a file_lease node sharing this cluster's state and lease files. */
  Node node(String name, Duration ttl, Duration renewInterval) throws IOException {
    return node(name, ttl, renewInterval, EVENT_LOG_FILES);
  }

  /** {@link #node(String, Duration, Duration)} with {@code sources} (HOCON) as its sources. */
  Node node(String name, Duration ttl, Duration renewInterval, String sources) throws IOException {
    int port = freePort();
    String hocon =
        """
        salesforce { login_url = "%s", auth_mode = client_credentials
                     client_id = ha-client, client_secret = ha-secret }
        %s
        sink.loki { url = "%s", batch.flush_interval = 200ms }
        state.file.path = "%s"
        coordinate { type = file_lease
                     file_lease { path = "%s", ttl = %dms, renew_interval = %dms, holder_id = %s } }
        service { http_host = "127.0.0.1", http_port = %d, shutdown_grace = %dms }
        """
            .formatted(
                salesforce.baseUrl(),
                sources,
                loki.baseUri(),
                statePath(),
                leasePath(),
                ttl.toMillis(),
                renewInterval.toMillis(),
                name,
                port,
                TestTiming.seconds(5).toMillis());
    Path config = dir.resolve(name + ".conf");
    Files.writeString(config, hocon);
    return new Node(name, config, port);
  }

  /** Starts a daemon process for {@code node}; it is killed at {@link #close()} at the latest. */
  DaemonProcess launch(Node node) {
    DaemonProcess p =
        DaemonProcess.start(
            node.name(), node.config(), node.httpPort(), dir.resolve(node.name() + ".log"));
    processes.add(p);
    return p;
  }

  /**
   * Launches {@code node-a} and {@code node-b} with {@code sources} and waits until exactly one
   * leads, steadily; returns {leader, standby}.
   */
  List<DaemonProcess> pair(Duration ttl, Duration renew, String sources) throws IOException {
    DaemonProcess a = launch(node("node-a", ttl, renew, sources));
    DaemonProcess b = launch(node("node-b", ttl, renew, sources));
    await("one leader, one standby")
        .atMost(TestTiming.seconds(60))
        .pollInterval(POLL)
        .until(
            () ->
                a.readyz().ready() && b.readyz().standby()
                    || b.readyz().ready() && a.readyz().standby());
    DaemonProcess leader = a.readyz().ready() ? a : b;
    DaemonProcess standby = leader == a ? b : a;
    // Exactly one, not just at one instant.
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(2).plus(TestTiming.seconds(1)))
        .pollInterval(POLL)
        .until(() -> leader.readyz().ready() && standby.readyz().standby());
    return List.of(leader, standby);
  }

  /** Makes Loki hold the next push for {@code delay}, and waits until that push is in flight. */
  void holdNextPush(Duration delay) {
    loki.addFault(Fault.latency(delay, 1));
    await("a push is in flight")
        .atMost(TestTiming.seconds(20))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> loki.pendingFaults() == 0);
  }

  /** The second org of a multi-org run: {@link #org(int) org(2)}. */
  FakeSalesforce secondOrg() {
    return org(2);
  }

  /**
   * Org number {@code n} of a multi-org run: 1 is this cluster's org; 2 and up are started on first
   * use and produce like the first (a Login and an API file of 10 rows every second), with client
   * credentials {@code ha-client-<n>} / {@code ha-secret-<n>}, an org id and request ids of their
   * own.
   */
  synchronized FakeSalesforce org(int n) {
    if (n == 1) {
      return salesforce;
    }
    return extraOrgs.computeIfAbsent(
        n,
        k -> {
          FakeSalesforce org =
              FakeSalesforce.builder()
                  .clientId("ha-client-" + k)
                  .clientSecret("ha-secret-" + k)
                  .orgId("00D%012dAAA".formatted(k))
                  .seed(k)
                  .build();
          org.startActivity(Duration.ofSeconds(1), List.of("Login", "API"), 10);
          return org;
        });
  }

  /**
   * Writes the config of a file_lease node running two orgs: {@code prod} (this cluster's org) and
   * {@code emea} ({@link #secondOrg()}), each with its own document and lease next to the
   * configured ones.
   */
  Node twoOrgNode(String name, Duration ttl, Duration renewInterval) throws IOException {
    return orgsNode(name, ttl, renewInterval, List.of("prod", "emea"));
  }

  /**
   * Writes the config of a file_lease node running the orgs {@code names}: the first is this
   * cluster's org, the i-th (from 0) {@link #org(int) org(i + 1)}; each has its own document and
   * lease next to the configured ones.
   */
  Node orgsNode(String name, Duration ttl, Duration renewInterval, List<String> names)
      throws IOException {
    Node node = node(name, ttl, renewInterval);
    StringBuilder orgs =
        new StringBuilder("orgs = [\n  { name = " + names.get(0) + ", salesforce {} }\n");
    for (int i = 1; i < names.size(); i++) {
      orgs.append(
          """
            { name = %s
              salesforce { login_url = "%s", client_id = ha-client-%d, client_secret = ha-secret-%d } }
          """
              .formatted(names.get(i), org(i + 1).baseUrl(), i + 1, i + 1));
    }
    Files.writeString(node.config(), Files.readString(node.config()) + orgs + "]\n");
    return node;
  }

  /** The checkpoint document as it is on disk now; empty when absent. */
  Map<String, String> state() {
    return state(statePath());
  }

  /** The checkpoint document of org {@code org} of a multi-org run; empty when absent. */
  Map<String, String> state(String org) {
    return state(dir.resolve("state-" + org + ".json"));
  }

  private static Map<String, String> state(Path path) {
    try {
      JsonNode doc = JSON.readTree(Files.readString(path));
      Map<String, String> out = new TreeMap<>();
      doc.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
      return out;
    } catch (NoSuchFileException e) {
      return Map.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code __fence_epoch__} of the checkpoint document. */
  OptionalLong persistedEpoch() {
    String epoch = state().get("__fence_epoch__");
    return epoch == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(epoch));
  }

  /** Every file the org has produced so far. */
  List<LogFileSpec> producedFiles() {
    return salesforce.logFiles();
  }

  /** The rows of {@code files} not (yet) in the fake Loki, as {@code EVENT_TYPE|REQUEST_ID}. */
  Set<String> missingRows(List<LogFileSpec> files) throws IOException {
    return missingRows(salesforce, files);
  }

  /** {@link #missingRows(List)} of the files {@code org} produced. */
  Set<String> missingRows(FakeSalesforce org, List<LogFileSpec> files) throws IOException {
    return delivered.missing(org, files);
  }

  /** The daemons' logs, for failure messages. */
  String logs() {
    StringBuilder out = new StringBuilder();
    for (DaemonProcess p : processes) {
      out.append("\n----- ").append(p).append(" -----\n").append(p.log());
    }
    return out.toString();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    for (DaemonProcess p : processes) {
      p.close();
    }
    salesforce.close();
    extraOrgs.values().forEach(FakeSalesforce::close);
    loki.close();
    if (dir.startsWith("/dev/shm")) {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(HaCluster::deleteQuietly);
      } catch (IOException e) {
        // best effort: tmpfs is cleared at reboot
      }
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // best effort
    }
  }
}
