package io.sf2loki.connect;

import java.io.IOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A combined KRaft node (broker and controller) in a JVM of its own, as an operator runs one:
 * {@code kafka-storage format}, then {@code kafka-server-start}, i.e. {@code
 * kafka.tools.StorageTool} and {@code kafka.Kafka} from the Kafka jars of the class path, with a
 * generated {@code server.properties}. The bench starts it under {@code taskset} so that the
 * broker's request handlers, log appends and network threads do not take CPU from the connector it
 * measures, as brokers on other machines do not. Its output goes to {@code broker.log} in its
 * directory.
 */
final class ChildBroker implements AutoCloseable {

  /** kafka-server-start's own heap and collector settings. */
  private static final List<String> JVM_FLAGS =
      List.of("-Xmx1g", "-Xms1g", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20");

  private final Process process;
  private final Path log;
  private final int port;
  private final String bootstrap;

  private ChildBroker(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
    this.bootstrap = "127.0.0.1:" + port;
  }

  /**
   * Formats a log directory under {@code dir}, starts the node and returns once it answers.
   *
   * @param prefix what the {@code java} command line starts with, e.g. {@code taskset -c 1}
   * @param classPath a class path holding the Kafka server jars (the test JVM's)
   * @throws IllegalStateException with the log's tail when formatting fails or the node dies or
   *     does not answer in time
   */
  static ChildBroker start(Path dir, List<String> prefix, String classPath)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    int port = ChildJvms.freePort();
    int controllerPort = ChildJvms.freePort();
    Properties props = new Properties();
    props.putAll(new TreeMap<>(serverProperties(dir, port, controllerPort)));
    Path file = dir.resolve("server.properties");
    try (Writer out = Files.newBufferedWriter(file)) {
      props.store(out, "ChildBroker");
    }
    Path log = dir.resolve("broker.log");
    List<String> format =
        List.of(
            "kafka.tools.StorageTool",
            "format",
            "-t",
            Uuid.randomUuid().toString(),
            "-c",
            file.toString());
    Process formatting = launch(prefix, classPath, format, dir.resolve("format.log"));
    boolean formatted = formatting.waitFor(2, TimeUnit.MINUTES) && formatting.exitValue() == 0;
    formatting.destroyForcibly();
    ChildJvms.ended(formatting);
    if (!formatted) {
      throw new IllegalStateException(
          "formatting the broker's storage failed:\n"
              + ChildJvms.tail(dir.resolve("format.log"), 40));
    }
    Process process = launch(prefix, classPath, List.of("kafka.Kafka", file.toString()), log);
    ChildBroker broker = new ChildBroker(process, log, port);
    try {
      broker.awaitReady(Duration.ofMinutes(2));
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
    return broker;
  }

  /** One combined node, the settings of {@link ConnectCluster}'s in-JVM one. */
  private static Map<String, String> serverProperties(Path dir, int port, int controllerPort) {
    return Map.ofEntries(
        Map.entry("process.roles", "broker,controller"),
        Map.entry("node.id", "1"),
        Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
        Map.entry(
            "listeners",
            "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort),
        Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port),
        Map.entry("controller.listener.names", "CONTROLLER"),
        Map.entry("inter.broker.listener.name", "PLAINTEXT"),
        Map.entry("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"),
        Map.entry("log.dirs", dir.resolve("logs").toString()),
        Map.entry("num.partitions", "1"),
        Map.entry("offsets.topic.replication.factor", "1"),
        Map.entry("transaction.state.log.replication.factor", "1"),
        Map.entry("transaction.state.log.min.isr", "1"),
        Map.entry("share.coordinator.state.topic.replication.factor", "1"),
        Map.entry("share.coordinator.state.topic.min.isr", "1"),
        Map.entry("group.initial.rebalance.delay.ms", "0"));
  }

  private static Process launch(
      List<String> prefix, String classPath, List<String> main, Path output) throws IOException {
    return ChildJvms.launch(prefix, JVM_FLAGS, classPath, main, output);
  }

  private void awaitReady(Duration timeout) {
    // the listener first: an admin client before it would log a warning per retry
    ChildJvms.awaitReady(
        process,
        "the broker",
        "listen",
        log,
        timeout,
        Duration.ofMillis(200),
        () -> {
          try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return true;
          } catch (IOException notYet) {
            return false;
          }
        });
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000))) {
      ChildJvms.awaitReady(
          process,
          "the broker",
          "answer",
          log,
          timeout,
          Duration.ofMillis(500),
          () -> {
            try {
              return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
            } catch (ExecutionException | TimeoutException notYet) {
              return false;
            }
          });
    }
  }

  String bootstrapServers() {
    return bootstrap;
  }

  long pid() {
    return process.pid();
  }

  /** SIGTERM (a controlled shutdown), SIGKILL after 30 s; waits until the process is gone. */
  @Override
  public void close() {
    try {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    ChildJvms.ended(process);
  }
}
