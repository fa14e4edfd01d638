package io.sf2loki.connect;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.distributed.DistributedHerder;

/**
 * A real Kafka and real Connect workers in the test JVM: one combined KRaft node (broker and
 * controller, {@link KafkaClusterTestKit}; for the bench, optionally a {@link ChildBroker}) and
 * distributed-mode workers started as {@code connect-distributed} starts them, driven through their
 * REST API. Connect's own test cluster ({@code EmbeddedConnectCluster}) ships in a test artifact
 * the registry does not serve.
 */
final class ConnectCluster implements AutoCloseable {

  private final String bootstrap;

  /** The broker: in this JVM, or the bench's {@link ChildBroker}. */
  private final AutoCloseable kafka;

  private final List<Connect<DistributedHerder>> workers = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private final String group = "sf2loki-connect-" + UUID.randomUUID();

  private final boolean exactlyOnce;

  private ConnectCluster(String bootstrap, AutoCloseable kafka, boolean exactlyOnce) {
    this.bootstrap = bootstrap;
    this.kafka = kafka;
    this.exactlyOnce = exactlyOnce;
  }

  /** The broker alone: its workers run elsewhere ({@link ChildWorker}). */
  static ConnectCluster broker(Path dir) throws Exception {
    return start(dir, 0, false);
  }

  static ConnectCluster start(Path dir, int workers) throws Exception {
    return start(dir, workers, false);
  }

  /**
   * @param exactlyOnce workers with {@code exactly.once.source.support=enabled} (KIP-618)
   */
  static ConnectCluster start(Path dir, int workers, boolean exactlyOnce) throws Exception {
    KafkaClusterTestKit kafka =
        new KafkaClusterTestKit.Builder(
                new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .setBaseDirectory(dir)
                    .build())
            // single-broker transactions: the exactly-once workers' producers
            .setConfigProp("transaction.state.log.replication.factor", "1")
            .setConfigProp("transaction.state.log.min.isr", "1")
            .setConfigProp("offsets.topic.replication.factor", "1")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .build();
    kafka.format();
    kafka.startup();
    kafka.waitForReadyBrokers();
    return withWorkers(new ConnectCluster(kafka.bootstrapServers(), kafka, exactlyOnce), workers);
  }

  /** In-JVM workers over a broker in a JVM of its own; closing the cluster stops the broker. */
  static ConnectCluster over(ChildBroker broker, int workers) {
    return withWorkers(new ConnectCluster(broker.bootstrapServers(), broker, false), workers);
  }

  private static ConnectCluster withWorkers(ConnectCluster cluster, int workers) {
    for (int i = 0; i < workers; i++) {
      cluster.addWorker();
    }
    return cluster;
  }

  String bootstrapServers() {
    return bootstrap;
  }

  /** Starts one more worker of the group, in this JVM. */
  void addWorker() {
    Map<String, String> props = workerProperties(group, exactlyOnce);
    props.put("listeners", "http://127.0.0.1:0");
    workers.add(new ConnectDistributed().startConnect(props));
  }

  /**
   * The properties of a distributed worker of {@code group} on this cluster's broker (its listener
   * left to the caller): in-JVM workers and {@link ChildWorker}s share them.
   *
   * @param exactlyOnce {@code exactly.once.source.support=enabled} (KIP-618)
   */
  Map<String, String> workerProperties(String group, boolean exactlyOnce) {
    Map<String, String> props = new HashMap<>();
    props.put("bootstrap.servers", bootstrap);
    props.put("group.id", group);
    props.put("offset.storage.topic", group + "-offsets");
    props.put("config.storage.topic", group + "-configs");
    props.put("status.storage.topic", group + "-status");
    props.put("offset.storage.replication.factor", "1");
    props.put("config.storage.replication.factor", "1");
    props.put("status.storage.replication.factor", "1");
    props.put("offset.storage.partitions", "1");
    props.put("status.storage.partitions", "1");
    props.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.put("key.converter.schemas.enable", "false");
    props.put("value.converter.schemas.enable", "false");
    props.put("offset.flush.interval.ms", "500");
    // a departed worker's tasks move at the next rebalance, not after the default five minutes
    props.put("scheduled.rebalance.max.delay.ms", "0");
    props.put("heartbeat.interval.ms", "500");
    props.put("session.timeout.ms", "6000");
    // every plugin has a ServiceLoader manifest: no minute-long class scan
    props.put("plugin.discovery", "service_load");
    // ${file:<path>:<key>} in a connector's configuration, as an operator's workers may allow
    props.put("config.providers", "file");
    props.put(
        "config.providers.file.class",
        "org.apache.kafka.common.config.provider.FileConfigProvider");
    if (exactlyOnce) {
      props.put("exactly.once.source.support", "enabled");
    }
    return props;
  }

  List<Connect<DistributedHerder>> workers() {
    return workers;
  }

  /** Stops worker {@code index}: its tasks move to the others at the next rebalance. */
  void stopWorker(int index) {
    workers.remove(index).stop();
  }

  private URI rest(String path) {
    return workers.get(0).rest().serverUrl().resolve(path);
  }

  HttpResponse<String> send(String method, String path, String json)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(rest(path))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json");
    request.method(
        method,
        json == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(json));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Every record of {@code topic}, values as the JSON the converter wrote. */
  List<ConsumerRecord<String, String>> readAll(String topic) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<ConsumerRecord<String, String>> out = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      int emptyPolls = 0;
      while (emptyPolls < 3) {
        var batch = consumer.poll(Duration.ofMillis(500));
        if (batch.isEmpty()) {
          emptyPolls++;
        } else {
          emptyPolls = 0;
          batch.forEach(out::add);
        }
      }
    }
    return out;
  }

  /**
   * How many records {@code topic} holds for a {@code read_committed} reader, without reading them:
   * the sum of its partitions' last stable offsets (transaction markers counted as well).
   */
  long recordsIn(String topic) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /**
   * The records of {@code topic} up to its end at the call (committed transactions only), without
   * waiting for more: a snapshot of what the topic held at that moment.
   */
  List<ConsumerRecord<String, String>> readToEnd(String topic) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    List<ConsumerRecord<String, String>> out = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      // read_committed: the end is the last stable offset, past which nothing is readable yet
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        consumer.poll(Duration.ofMillis(200)).forEach(out::add);
      }
    }
    return out;
  }

  @Override
  public void close() {
    for (Connect<DistributedHerder> worker : workers) {
      worker.stop();
    }
    workers.clear();
    try {
      kafka.close();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("the broker did not close cleanly", e);
    }
  }
}
