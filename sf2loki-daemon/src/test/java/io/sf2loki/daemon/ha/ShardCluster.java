package io.sf2loki.daemon.ha;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.IntStream;

/**
 * M orgs, each a shard, and daemon processes that all run every one of them, electing a leader per
 * shard through a lease file per org ({@code file_lease}) or a Kubernetes Lease per org ({@code
 * k8s_lease}) on the fabric8 CRUD mock API server, which runs in this JVM and which the processes
 * reach through a kubeconfig file. Built on {@link HaCluster}: its fake Loki, its org as the first
 * shard, its checkpoint documents.
 */
final class ShardCluster implements AutoCloseable {

  /** How the processes elect a leader per shard. */
  enum Leases {
    FILE_LEASE,
    K8S_LEASE
  }

  /**
   * {@code sink.loki.batch.max_entries} of the processes: the re-send bound of an ended term is
   * built on it.
   */
  static final int MAX_ENTRIES = 200;

  /**
   * What a shard's ended term may send again, as the chaos soak bounds it: one batch, plus one
   * EventLogFile per event type (each org produces a Login and an API file of 10 rows a second).
   */
  static final int RESEND_PER_TERM = MAX_ENTRIES + 2 * 10;

  /** {@code coordinate.shard_slack} of the processes: the default. */
  static final int SLACK = 0;

  private static final String ABANDONED_CLAIM = "longer than the verify pause; abandoning it";

  /** fabric8's mock web server logs every request through java.util.logging: only warnings. */
  private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_LOG.setLevel(Level.WARNING);
  }

  private final HaCluster cluster;
  private final Leases leases;
  private final List<String> shards;
  private final Duration ttl;
  private final Duration renew;
  private final Optional<KubernetesMockServer> api;
  private final Map<String, HaCluster.Node> nodes = new HashMap<>();
  private final Map<String, DaemonProcess> live = new TreeMap<>();
  private final List<DaemonProcess> launched = new ArrayList<>();

  private ShardCluster(
      HaCluster cluster,
      Leases leases,
      List<String> shards,
      Duration ttl,
      Duration renew,
      Optional<KubernetesMockServer> api) {
    this.cluster = cluster;
    this.leases = leases;
    this.shards = List.copyOf(shards);
    this.ttl = ttl;
    this.renew = renew;
    this.api = api;
  }

  /**
   * Starts the fakes for {@code orgs} orgs named {@code org1} … (and, under {@code k8s_lease}, the
   * mock API server); no process yet.
   */
  static ShardCluster start(Path fallback, Leases leases, int orgs, Duration ttl, Duration renew)
      throws IOException {
    HaCluster cluster = HaCluster.start(fallback);
    List<String> shards = IntStream.rangeClosed(1, orgs).mapToObj(i -> "org" + i).toList();
    shards.forEach(s -> org(cluster, s)); // every org produces from now on
    Optional<KubernetesMockServer> api = Optional.empty();
    if (leases == Leases.K8S_LEASE) {
      KubernetesMockServer server =
          new KubernetesMockServer(
              new Context(),
              new MockWebServer(),
              new HashMap<>(),
              new KubernetesCrudDispatcher(Collections.emptyList()),
              false);
      server.start(InetAddress.getByName("127.0.0.1"), 0);
      api = Optional.of(server);
    }
    return new ShardCluster(cluster, leases, shards, ttl, renew, api);
  }

  private static FakeSalesforce org(HaCluster cluster, String shard) {
    return cluster.org(Integer.parseInt(shard.substring("org".length())));
  }

  HaCluster cluster() {
    return cluster;
  }

  List<String> shards() {
    return shards;
  }

  /** ttl (file_lease) or lease_duration (k8s_lease) plus renew_interval: a dead leader's bound. */
  Duration takeoverBound() {
    return ttl.plus(renew);
  }

  /**
   * How long balancing may take to bring every live process within its cap once every shard is led:
   * the busiest hands over one shard per renew interval, down from all M to the cap, and a shard
   * released for balance is claimed at a taker's next poll (one more renew interval); plus a ttl
   * for the roster entry of a process killed just before to expire (until then the others count it,
   * so their caps are lower, never higher, than the live processes' ⌈M/N⌉).
   */
  Duration spreadBound() {
    return renew.multipliedBy(shards.size() + 1L).plus(ttl);
  }

  /**
   * The ttl: what an abandoned file-lease claim adds to a takeover (a claim whose write took longer
   * than the verify pause stays in the file until it expires,
   * docs/deployment/high-availability.md).
   */
  Duration ttl() {
    return ttl;
  }

  /**
   * File-lease claims the processes have abandoned so far, killed ones included (their write took
   * longer than the verify pause, as on a starved machine).
   */
  long abandonedClaims() {
    return launched.stream()
        .mapToLong(p -> p.log().lines().filter(l -> l.contains(ABANDONED_CLAIM)).count())
        .sum();
  }

  /** Starts process {@code name} (again, with the same configuration, after a kill). */
  DaemonProcess launch(String name) throws IOException {
    HaCluster.Node node = nodes.get(name);
    if (node == null) {
      node = cluster.orgsNode(name, ttl, renew, shards);
      Files.writeString(node.config(), Files.readString(node.config()) + extraConfig(name));
      nodes.put(name, node);
    }
    DaemonProcess p = cluster.launch(node);
    live.put(name, p);
    launched.add(p);
    return p;
  }

  private String extraConfig(String name) throws IOException {
    String sink = "sink.loki.batch.max_entries = " + MAX_ENTRIES + "\n";
    if (api.isEmpty()) {
      return sink;
    }
    Path kubeconfig = cluster.statePath().resolveSibling("kubeconfig");
    if (!Files.exists(kubeconfig)) {
      Files.writeString(
          kubeconfig,
          """
          apiVersion: v1
          kind: Config
          clusters: [{name: mock, cluster: {server: "%s"}}]
          users: [{name: test, user: {token: test}}]
          contexts: [{name: mock, context: {cluster: mock, user: test, namespace: default}}]
          current-context: mock
          """
              .formatted(api.get().url("/").replaceAll("/$", "")));
    }
    return sink
        + """
        coordinate { type = k8s_lease
                     k8s_lease { kubeconfig = "%s", identity = %s
                                 lease_duration = %dms, renew_interval = %dms } }
        """
            .formatted(kubeconfig, name, ttl.toMillis(), renew.toMillis());
  }

  /** {@code kill -9} of live process {@code name}. */
  void kill9(String name) throws InterruptedException {
    live.remove(name).kill9();
  }

  /**
   * SIGTERM to live process {@code name}, which hands its shards over and exits; from now on it is
   * not polled.
   */
  void sigterm(String name) {
    live.remove(name).sigterm();
  }

  /** Polls every live process once: {@code /readyz}, and the epochs of what it leads. */
  ShardOwnership ownership() {
    return poll(true);
  }

  /** {@link #ownership()} by {@code /readyz} alone, every epoch 0: the bench's quick poll. */
  ShardOwnership leaders() {
    return poll(false);
  }

  private ShardOwnership poll(boolean epochs) {
    Map<String, Map<String, Long>> leaders = new TreeMap<>();
    Set<String> answering = new TreeSet<>();
    for (DaemonProcess p : live.values()) {
      Map<String, String> orgs = orgLines(p.readyz());
      if (orgs.keySet().containsAll(shards) && !orgs.containsValue("not ready")) {
        answering.add(p.name());
      }
      orgs.forEach(
          (org, text) -> {
            if (text.equals("ready") || text.startsWith("degraded")) {
              long epoch =
                  epochs ? (long) p.metric("sf2loki_leader_epoch", "org=\"" + org + "\"") : 0;
              leaders.computeIfAbsent(org, o -> new TreeMap<>()).put(p.name(), epoch);
            }
          });
    }
    return new ShardOwnership(shards, leaders, live.keySet(), answering);
  }

  /** The per-org lines of a multi-org {@code /readyz} answer: org to its own answer. */
  private static Map<String, String> orgLines(DaemonProcess.Readyz readyz) {
    Map<String, String> out = new TreeMap<>();
    if (readyz.status() < 0) {
      return out;
    }
    for (String line : readyz.body().split("\n")) {
      if (line.startsWith("org ") && line.contains(": ")) {
        int colon = line.indexOf(": ");
        out.put(line.substring("org ".length(), colon), line.substring(colon + 2).strip());
      }
    }
    return out;
  }

  /** {@code __fence_epoch__} of every shard's checkpoint document (0 while it has none). */
  Map<String, Long> storedEpochs() {
    Map<String, Long> out = new TreeMap<>();
    for (String shard : shards) {
      out.put(shard, Long.parseLong(cluster.state(shard).getOrDefault("__fence_epoch__", "0")));
    }
    return out;
  }

  /** Every file each org produced so far. */
  Map<String, List<LogFileSpec>> producedFiles() {
    Map<String, List<LogFileSpec>> out = new TreeMap<>();
    shards.forEach(s -> out.put(s, org(cluster, s).logFiles()));
    return out;
  }

  /** Files produced so far, over every org. */
  int producedFileCount() {
    return producedFiles().values().stream().mapToInt(List::size).sum();
  }

  /** The rows of {@code files} (per org) not (yet) in the fake Loki. */
  Set<String> missingRows(Map<String, List<LogFileSpec>> files) throws IOException {
    Set<String> missing = new LinkedHashSet<>();
    for (Map.Entry<String, List<LogFileSpec>> e : files.entrySet()) {
      for (String row : cluster.missingRows(org(cluster, e.getKey()), e.getValue())) {
        missing.add(e.getKey() + " " + row);
      }
    }
    return missing;
  }

  /** The entries the fake Loki received again and dropped as exact duplicates. */
  long resent() {
    return cluster.loki().stats().duplicates();
  }

  /** The live processes' names. */
  List<String> liveNames() {
    return new ArrayList<>(live.keySet());
  }

  @Override
  public String toString() {
    return leases + ", " + shards.size() + " orgs, processes " + live.keySet();
  }

  @Override
  public void close() {
    cluster.close();
    api.ifPresent(KubernetesMockServer::destroy);
  }
}
