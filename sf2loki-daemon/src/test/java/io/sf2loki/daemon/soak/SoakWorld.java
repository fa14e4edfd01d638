package io.sf2loki.daemon.soak;

import io.sf2loki.daemon.ha.DaemonProcess;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What one soak run runs in: the simulated org (a fake Salesforce producing an API and a URI
 * EventLogFile of {@value #ROWS_PER_FILE} rows and a few LoginHistory records every second), the
 * fake Loki, the store, the lease file, and the two replicas with every incarnation they had.
 */
final class SoakWorld implements AutoCloseable {

  static final List<String> EVENT_TYPES = List.of("API", "URI");
  static final int ROWS_PER_FILE = 10;
  static final String OBJECT = "LoginHistory";

  /** {@code sink.loki.batch.max_entries} of the daemons: the re-send bound is built on it. */
  static final int BATCH_MAX_ENTRIES = 200;

  /** Push timeout of the daemons: a later Loki answer is an unknown outcome to them. */
  static final Duration PUSH_TIMEOUT = Duration.ofSeconds(2);

  private final SoakOptions options;
  private final Path runDir;
  private final Path sharedDir;
  private final SoakStore store;
  private final FakeSalesforce salesforce;
  private final FakeLoki loki;
  private final List<SoakNode> nodes;
  private final List<DaemonProcess> incarnations = new ArrayList<>();
  private final List<String> unexpectedExits = new ArrayList<>();

  private SoakWorld(
      SoakOptions options,
      Path runDir,
      Path sharedDir,
      SoakStore store,
      FakeSalesforce salesforce,
      FakeLoki loki,
      List<SoakNode> nodes) {
    this.options = options;
    this.runDir = runDir;
    this.sharedDir = sharedDir;
    this.store = store;
    this.salesforce = salesforce;
    this.loki = loki;
    this.nodes = nodes;
  }

  /**
   * Starts the fakes and the store; the replicas are started by {@link #launch}. The lease and the
   * state file live in {@code sharedDir} (tmpfs where there is one: a claim slower than the verify
   * pause is abandoned by design, and fsync on a busy build machine's disk can take that long);
   * configurations and logs go to {@code runDir}.
   */
  static SoakWorld start(SoakOptions options, SoakStore.Kind kind, Path runDir, Path sharedDir)
      throws IOException {
    deleteTree(runDir); // the logs of an earlier run would read as this run's terms
    Files.createDirectories(runDir);
    // Generated rows cover the previous hour, so a replay after an hour boundary would be "too far
    // behind" under Loki's 1h window: widen it here and in the sink. The soak is about failures;
    // the time-window policy has tests of its own.
    FakeLoki loki =
        FakeLoki.builder()
            .limits(LokiLimits.defaults().withOutOfOrderWindow(Duration.ofDays(2)))
            .clock(Clock.systemUTC())
            .recording(FakeLoki.PushRecording.HEADERS_ONLY)
            .start();
    FakeSalesforce salesforce =
        FakeSalesforce.builder()
            .clientId("soak-client")
            .clientSecret("soak-secret")
            .seed(options.seed())
            .build();
    SoakStore store = SoakStore.open(kind, sharedDir);
    salesforce.startActivity(Duration.ofSeconds(1), EVENT_TYPES, ROWS_PER_FILE);
    List<SoakNode> nodes = List.of(new SoakNode("a", freePort()), new SoakNode("b", freePort()));
    return new SoakWorld(options, runDir, sharedDir, store, salesforce, loki, nodes);
  }

  FakeSalesforce salesforce() {
    return salesforce;
  }

  FakeLoki loki() {
    return loki;
  }

  SoakStore store() {
    return store;
  }

  Path leasePath() {
    return sharedDir.resolve("leader.lease");
  }

  List<SoakNode> nodes() {
    return nodes;
  }

  /** The replica that is not {@code node}. */
  SoakNode other(SoakNode node) {
    return nodes.get(0) == node ? nodes.get(1) : nodes.get(0);
  }

  /** Starts the next incarnation of {@code node} with a configuration of its own. */
  synchronized DaemonProcess launch(SoakNode node) throws IOException {
    String writer = node.nextWriter();
    Path config = runDir.resolve(writer + ".conf");
    Files.writeString(config, config(writer, node.httpPort()));
    DaemonProcess p =
        DaemonProcess.startJar(
            writer, options.daemonJar(), config, node.httpPort(), runDir.resolve(writer + ".log"));
    node.started(p);
    incarnations.add(p);
    return p;
  }

  private String config(String writer, int httpPort) {
    return """
        salesforce { login_url = "%s", auth_mode = client_credentials
                     client_id = soak-client, client_secret = soak-secret
                     limits.throttle_backoff = 2s }
        sources.eventlogfile { enabled = true, event_types = ["*"], poll_interval = 1s
                               settle_window = 0s, lookback = 3h }
        sources.eventlog_objects { enabled = true, poll_interval = 1s, settle_window = 0s
                                   lookback = 1h, objects = [{name = %s, timestamp_field = LoginTime}] }
        sink.loki { url = "%s", timeout = %dms, out_of_order_window = 47h
                    batch { flush_interval = 200ms, max_entries = %d } }
        %s
        coordinate { type = file_lease
                     file_lease { path = "%s", ttl = %dms, renew_interval = %dms, holder_id = %s } }
        service { http_host = "127.0.0.1", http_port = %d, shutdown_grace = 2s }
        """
        .formatted(
            salesforce.baseUrl(),
            OBJECT,
            loki.baseUri(),
            PUSH_TIMEOUT.toMillis(),
            BATCH_MAX_ENTRIES,
            store.stateConfig(writer),
            leasePath(),
            options.ttl().toMillis(),
            options.renewInterval().toMillis(),
            writer,
            httpPort);
  }

  /**
   * Restarts every replica whose process ended although the soak did not end it, and records it: a
   * daemon must not exit on its own under any of these faults.
   */
  void reviveUnexpectedExits() throws IOException, InterruptedException {
    for (SoakNode node : nodes) {
      if (node.diedUnexpectedly()) {
        DaemonProcess dead = node.process().orElseThrow();
        synchronized (this) {
          unexpectedExits.add(
              dead.name() + " exited " + dead.awaitExit(Duration.ZERO) + ": " + lastLines(dead, 3));
        }
        launch(node);
      }
    }
  }

  private static String lastLines(DaemonProcess p, int n) {
    List<String> lines = p.log().lines().toList();
    return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
  }

  /** Every incarnation started so far, in launch order. */
  synchronized List<DaemonProcess> incarnations() {
    return List.copyOf(incarnations);
  }

  synchronized List<String> unexpectedExits() {
    return List.copyOf(unexpectedExits);
  }

  /** Deletes {@code dir} and everything below it, if it exists. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    for (DaemonProcess p : incarnations()) {
      p.close();
    }
    salesforce.close();
    loki.close();
    store.close();
  }
}
