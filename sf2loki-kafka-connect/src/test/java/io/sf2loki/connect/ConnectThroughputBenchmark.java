package io.sf2loki.connect;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.Environments;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.testkit.loki.DecodedStream;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Entries per second of the two connectors next to the daemon's, in one run and alternating
 * (docs/performance.md): the daemon's engine ({@link ConfiguredEngine}, as the daemon composes it)
 * draining a backlog of Hourly EventLogFiles from the fake org into a fake Loki; the source
 * connector draining the same backlog into a topic (one distributed worker over a KRaft broker, in
 * this JVM); the sink connector reading that topic into a fake Loki. Each round ends when the last
 * entry arrived; the time includes starting the engine or the connector's task.
 *
 * <p>Options {@code key=value}: {@code rounds=3 types=4 hours=6 rows=10000 tasks=1} (the sink's
 * {@code tasks.max}); {@code source.<key>=<value>} adds {@code <key>} to the source connector's
 * configuration, e.g. {@code source.sf2loki.poll.max.records=2000} or {@code
 * source.producer.override.linger.ms=10}; {@code sink.<key>=<value>} likewise for the sink
 * connector, e.g. {@code
 * sink.value.converter=org.apache.kafka.connect.converters.ByteArrayConverter} to read what {@code
 * source.sf2loki.record.format=json} wrote. {@code variants=,json} runs a source and a sink round
 * per variant after each daemon round (the empty name: the options above alone); {@code
 * json.source.<key>=<value>} and {@code json.sink.<key>=<value>} add variant {@code json}'s own.
 *
 * <p>{@code kafka_cpus=<cpu list>} runs the broker in a JVM of its own ({@link ChildBroker}) on
 * those CPUs ({@code taskset -c}), as brokers run on other machines in production; {@code
 * bench_cpus=<cpu list>} pins this JVM (the engine, the Connect worker, the fake org, the fake Loki
 * and the counting consumer) to those, before any of them starts: {@code kafka_cpus=1 bench_cpus=0}
 * gives the daemon and the connectors the same one core. Each round prints the CPU time of this JVM
 * and of the broker's in cores, and each CPU's busy share, whoever used it.
 */
final class ConnectThroughputBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, String> options;
  private final FakeSalesforce org;
  private final List<String> types = new ArrayList<>();
  private final long total;
  private final Path dir;

  /** The processes whose CPU time each round reports: this JVM, and a child broker's. */
  private final Map<String, Long> pids =
      new LinkedHashMap<>(Map.of("bench", ProcessHandle.current().pid()));

  private final ScheduledExecutorService forgetter =
      Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("bench-loki-forget"));

  private ConnectThroughputBenchmark(Map<String, String> options) throws IOException {
    this.options = options;
    this.dir = Files.createTempDirectory("bench-connect");
    org = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    int hours = integer("hours", 6);
    long rows = integer("rows", 10_000);
    List<String> known = List.of("API", "URI", "ReportExport", "Login", "Logout", "RestApi");
    for (int t = 0; t < integer("types", 4); t++) {
      types.add(known.get(t));
    }
    Instant end = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(2, ChronoUnit.HOURS);
    for (int h = hours; h > 0; h--) {
      Instant logDate = end.minus(h, ChronoUnit.HOURS);
      for (String type : types) {
        org.addLogFile(type, "Hourly", logDate, logDate.plus(70, ChronoUnit.MINUTES), rows);
      }
    }
    total = types.size() * hours * rows;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (String a : args) {
      String[] kv = a.split("=", 2);
      options.put(kv[0], kv.length > 1 ? kv[1] : "true");
    }
    String benchCpus = options.get("bench_cpus");
    if (options.containsKey("kafka_cpus")) {
      BenchCpus.checked("kafka_cpus", options.get("kafka_cpus"));
    }
    if (benchCpus != null) {
      // before the fake org's, the broker's and the workers' threads start: they inherit it
      BenchCpus.pinThisJvm(BenchCpus.checked("bench_cpus", benchCpus));
    }
    ConnectThroughputBenchmark bench = new ConnectThroughputBenchmark(options);
    say(
        "bench-connect, load "
            + load()
            + ", "
            + Runtime.getRuntime().availableProcessors()
            + " CPUs, java "
            + System.getProperty("java.version")
            + ", options "
            + options
            + ", "
            + String.format(Locale.ROOT, "%,d", bench.total)
            + " entries per round");
    bench.run();
    System.exit(0); // the broker's and the workers' pools are not all daemon threads
  }

  private int integer(String key, int defaultValue) {
    return Integer.parseInt(options.getOrDefault(key, Integer.toString(defaultValue)));
  }

  private String sourcesHocon() {
    return """
        salesforce { auth_mode = client_credentials, login_url = "%s", client_id = cid, client_secret = secret }
        sources.eventlogfile { enabled = true, event_types = [%s], interval = Hourly, lookback = 48h }
        """
        .formatted(org.baseUrl(), String.join(", ", types));
  }

  private void run() throws Exception {
    Map<String, List<Double>> rates = new HashMap<>();
    List<String> variants = List.of(options.getOrDefault("variants", "").split(","));
    List<String> names = new ArrayList<>(List.of("daemon"));
    for (String v : variants) {
      String suffix = v.isEmpty() ? "" : " [" + v + "]";
      names.add("source connector" + suffix);
      names.add("sink connector" + suffix);
    }
    try (ConnectCluster cluster = cluster()) {
      for (int round = 1; round <= integer("rounds", 3); round++) {
        BenchCpus.Sample before = BenchCpus.Sample.of(pids);
        record("daemon", round, daemon(round), rates, before);
        for (String v : variants) {
          String suffix = v.isEmpty() ? "" : " [" + v + "]";
          String id = round + (v.isEmpty() ? "" : "-" + v);
          before = BenchCpus.Sample.of(pids);
          record("source connector" + suffix, round, source(cluster, id, v), rates, before);
          before = BenchCpus.Sample.of(pids);
          record("sink connector" + suffix, round, sink(cluster, id, v), rates, before);
        }
      }
    }
    double daemon = median(rates.get("daemon"));
    for (String name : names) {
      double m = median(rates.get(name));
      say(
          String.format(
              Locale.ROOT,
              "RESULT %s: median %,.0f entries/s (%.2fx the daemon), rounds %s",
              name,
              m,
              m / daemon,
              rates.get(name).stream().map(r -> String.format(Locale.ROOT, "%,.0f", r)).toList()));
    }
    say("done, load " + load());
    org.close();
  }

  /** The broker in this JVM, or with {@code kafka_cpus} in a JVM of its own on those CPUs. */
  private ConnectCluster cluster() throws Exception {
    String cpus = options.get("kafka_cpus");
    if (cpus == null) {
      return ConnectCluster.start(dir.resolve("kafka"), 1);
    }
    ChildBroker broker =
        ChildBroker.start(
            dir.resolve("kafka"), BenchCpus.on(cpus), System.getProperty("java.class.path"));
    pids.put("kafka", broker.pid());
    say("broker pid " + broker.pid() + " on CPUs " + cpus + ", " + broker.bootstrapServers());
    try {
      return ConnectCluster.over(broker, 1);
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
  }

  private void record(
      String name,
      int round,
      double rate,
      Map<String, List<Double>> rates,
      BenchCpus.Sample before) {
    rates.computeIfAbsent(name, k -> new ArrayList<>()).add(rate);
    // the round's wall-clock span, to cut a JFR recording by round
    Instant end = Instant.now();
    Instant start = end.minusMillis((long) (total / rate * 1000));
    say(
        String.format(
            Locale.ROOT,
            "round %d %-24s %,10.0f entries/s, %s..%s, load %s, %s",
            round,
            name,
            rate,
            start,
            end,
            load(),
            BenchCpus.Sample.of(pids).since(before)));
  }

  /** Fake org -> the daemon's engine -> fake Loki. */
  private double daemon(int round) throws Exception {
    AtomicLong arrived = new AtomicLong();
    try (FakeLoki loki = countingLoki(arrived)) {
      String hocon =
          sourcesHocon()
              + "sink.loki.url = \"%s\"\nstate.file.path = \"%s\"\n"
                  .formatted(loki.baseUri(), dir.resolve("state-" + round + ".json"));
      ClassLoader loader = getClass().getClassLoader();
      Sf2LokiConfig config =
          Sf2LokiConfig.bind(new ConfigLoader(loader, Map.of()).loadString(hocon), loader);
      StopTrigger stop = new StopTrigger();
      long start = System.nanoTime();
      Engine engine =
          ConfiguredEngine.create(config, Environments.engine(new SimpleMeterRegistry()), Map.of());
      CompletableFuture<EngineOutcome> run =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return engine.run(stop);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      double rate = until(start, arrived::get, run::isDone);
      stop.requestStop();
      run.get(60, TimeUnit.SECONDS);
      engine.close();
      return rate;
    }
  }

  /** The {@code <prefix>.} options, then variant {@code v}'s, without their prefixes. */
  private Map<String, String> options(String prefix, String v) {
    Map<String, String> out = new HashMap<>();
    for (String p : v.isEmpty() ? List.of(prefix) : List.of(prefix, v + "." + prefix)) {
      options.forEach(
          (key, value) -> {
            if (key.startsWith(p + ".")) {
              out.put(key.substring(p.length() + 1), value);
            }
          });
    }
    return out;
  }

  /** Fake org -> the source connector (variant {@code v}) -> topic {@code bench-<id>}. */
  private double source(ConnectCluster cluster, String id, String v) throws Exception {
    String topic = "bench-" + id;
    Map<String, String> config =
        new HashMap<>(
            Map.of(
                "connector.class",
                Sf2LokiSourceConnector.class.getName(),
                "tasks.max",
                "1",
                "topic",
                topic,
                "sf2loki.config",
                sourcesHocon()));
    config.putAll(options("source", v));
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(cluster, topic)) {
      long start = System.nanoTime();
      create(cluster, "source-" + id, config);
      long[] arrived = {0};
      double rate =
          until(
              start,
              () -> {
                // everything that has arrived, not one poll's worth: one poll every 20 ms (until's
                // pause) of at most max.poll.records would cap the count, near 20,000 records/s
                ConsumerRecords<byte[], byte[]> batch;
                do {
                  batch = consumer.poll(Duration.ofMillis(20));
                  for (ConsumerRecord<byte[], byte[]> r : batch) {
                    if (r.value() != null) {
                      arrived[0]++;
                    }
                  }
                } while (!batch.isEmpty() && arrived[0] < total);
                return arrived[0];
              },
              () -> false);
      cluster.send("DELETE", "connectors/source-" + id, null);
      return rate;
    }
  }

  /**
   * Topic {@code bench-<id>} (filled by the source round) -> the sink connector (variant {@code v})
   * -> fake Loki.
   */
  private double sink(ConnectCluster cluster, String id, String v) throws Exception {
    AtomicLong arrived = new AtomicLong();
    try (FakeLoki loki = countingLoki(arrived)) {
      Map<String, String> config =
          new HashMap<>(
              Map.of(
                  "connector.class",
                  LokiSinkConnector.class.getName(),
                  "tasks.max",
                  options.getOrDefault("tasks", "1"),
                  "topics",
                  "bench-" + id,
                  "sf2loki.config",
                  sourcesHocon() + "sink.loki.url = \"%s\"\n".formatted(loki.baseUri())));
      config.putAll(options("sink", v));
      long start = System.nanoTime();
      create(cluster, "sink-" + id, config);
      double rate = until(start, arrived::get, () -> false);
      cluster.send("DELETE", "connectors/sink-" + id, null);
      return rate;
    }
  }

  private static void create(ConnectCluster cluster, String name, Map<String, String> config)
      throws Exception {
    var answer =
        cluster.send("PUT", "connectors/" + name + "/config", JSON.writeValueAsString(config));
    if (answer.statusCode() / 100 != 2) {
      throw new IllegalStateException(name + ": " + answer.body());
    }
  }

  private static KafkaConsumer<byte[], byte[]> consumer(ConnectCluster cluster, String topic) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    // larger fetches: fewer round trips for the counting, which shares the cores with the round
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
    props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 << 20);
    KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    consumer.subscribe(List.of(topic));
    return consumer;
  }

  /** A fake Loki that counts the entries it stores; it forgets them every 2 s (the heap). */
  private FakeLoki countingLoki(AtomicLong arrived) throws IOException {
    FakeLoki loki =
        FakeLoki.builder()
            .recording(FakeLoki.PushRecording.HEADERS_ONLY)
            .onStored(
                streams -> {
                  for (DecodedStream s : streams) {
                    arrived.addAndGet(s.entries().size());
                  }
                })
            .start();
    forgetter.scheduleWithFixedDelay(loki::reset, 2, 2, TimeUnit.SECONDS);
    return loki;
  }

  /** Waits until {@code arrived} reaches the round's total; entries per second since start. */
  private double until(long start, LongSupplier arrived, BooleanSupplier ended)
      throws InterruptedException {
    long deadline = start + TimeUnit.MINUTES.toNanos(integer("timeout_minutes", 10));
    long n;
    while ((n = arrived.getAsLong()) < total) {
      if (ended.getAsBoolean() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            String.format(Locale.ROOT, "only %,d of %,d entries arrived", n, total));
      }
      Thread.sleep(20);
    }
    return total / ((System.nanoTime() - start) / 1e9);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int m = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted.get(m) : (sorted.get(m - 1) + sorted.get(m)) / 2;
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
