package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged Connect plugin directory: what a worker's plugin.path gets, and a worker that has
 * only it to load the connectors from. Failsafe runs it after packaging and names the directory; a
 * surefire run picked by -Dtest skips it.
 */
class PluginPackageIT {

  private static Path PLUGIN;

  @BeforeAll
  static void packaged() {
    String dir = System.getProperty("plugin.dir");
    assumeTrue(dir != null, "plugin.dir is set by failsafe once the plugin is packaged");
    PLUGIN = Path.of(dir);
  }

  private static List<String> jars() throws IOException {
    try (Stream<Path> files = Files.list(PLUGIN.resolve("lib"))) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** Each file under {@code root}, as its path relative to {@code root.getParent()}. */
  private static List<String> files(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> root.getParent().relativize(p).toString().replace('\\', '/'))
          .sorted()
          .toList();
    }
  }

  @Test
  void theZipHoldsTheDirectoryUnderItsOwnRootDirectory() throws IOException {
    String zip = System.getProperty("plugin.zip");
    assertThat(zip).as("plugin.zip is set by failsafe").isNotNull();
    List<String> entries;
    try (ZipFile file = new ZipFile(zip)) {
      entries =
          file.stream().filter(e -> !e.isDirectory()).map(ZipEntry::getName).sorted().toList();
    }

    assertThat(entries)
        .isEqualTo(files(PLUGIN))
        .contains("sf2loki-kafka-connect/README.txt")
        .allMatch(e -> e.startsWith("sf2loki-kafka-connect/"));
  }

  @Test
  void theConnectorsAndSf2lokisModulesAreInTheLibDirectory() throws IOException {
    assertThat(jars())
        .anyMatch(j -> j.startsWith("sf2loki-kafka-connect-"))
        .anyMatch(j -> j.startsWith("sf2loki-core-"))
        .anyMatch(j -> j.startsWith("sf2loki-sources-"))
        .anyMatch(j -> j.startsWith("sf2loki-loki-"));
  }

  @Test
  void theWorkersOwnKafkaJarsAndTheTestDependenciesStayOut() throws IOException {
    assertThat(jars())
        .noneMatch(j -> j.startsWith("connect-api-"))
        .noneMatch(j -> j.startsWith("kafka-clients-"))
        .noneMatch(j -> j.startsWith("connect-runtime-"))
        .noneMatch(j -> j.startsWith("sf2loki-testkit-"))
        .noneMatch(j -> j.startsWith("logback-"));
  }

  @Test
  void theConnectorJarDeclaresBothConnectorsForServiceLoaderDiscovery() throws IOException {
    Path jar;
    try (Stream<Path> files = Files.list(PLUGIN.resolve("lib"))) {
      jar =
          files
              .filter(p -> p.getFileName().toString().startsWith("sf2loki-kafka-connect-"))
              .findFirst()
              .orElseThrow();
    }
    try (JarFile file = new JarFile(jar.toFile())) {
      assertThat(
              new String(
                  file.getInputStream(
                          file.getEntry(
                              "META-INF/services/org.apache.kafka.connect.source.SourceConnector"))
                      .readAllBytes()))
          .contains(Sf2LokiSourceConnector.class.getName());
      assertThat(
              new String(
                  file.getInputStream(
                          file.getEntry(
                              "META-INF/services/org.apache.kafka.connect.sink.SinkConnector"))
                      .readAllBytes()))
          .contains(LokiSinkConnector.class.getName());
    }
  }

  /**
   * The test JVM's class path less sf2loki: the build's class directories and every sf2loki jar.
   * What is left is the worker's own (connect-runtime and its dependencies), and the test's.
   */
  private static String workerClassPath() {
    return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !Files.isDirectory(Path.of(entry)))
        .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("sf2loki-"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  @Test
  void aWorkerWithoutSf2lokiOnItsClassPathRunsTheSourceFromThePluginDirectoryAlone(
      @TempDir Path dir) throws Exception {
    String classPath = workerClassPath();
    assertThat(classPath).doesNotContain("sf2loki-core").doesNotContain("sf2loki-kafka-connect");
    FakeSalesforce org = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
    Instant hour = Instant.now().minus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
    org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 20);
    org.eventObjects().define("SetupAuditTrail", "CreatedDate", false);
    try (ConnectCluster kafka = ConnectCluster.broker(dir);
        ChildWorker worker = startIsolated(dir, kafka, classPath)) {
      assertThat(worker.send("GET", "connector-plugins", null).body())
          .contains(Sf2LokiSourceConnector.class.getName())
          .contains(LokiSinkConnector.class.getName());
      String config =
          new ObjectMapper()
              .writeValueAsString(
                  Map.of(
                      "connector.class",
                      Sf2LokiSourceConnector.class.getName(),
                      "tasks.max",
                      "1",
                      "topic",
                      "isolated",
                      "sf2loki.config",
                      SourceTaskTest.hocon(org)));
      var answer = worker.send("PUT", "connectors/isolated/config", config);
      assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
      await()
          .atMost(TestTiming.seconds(90))
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () ->
                  assertThat(kafka.readToEnd("isolated").stream().filter(r -> r.value() != null))
                      .as(worker.logTail(40))
                      .hasSize(20));
    } finally {
      org.close();
    }
  }

  private static ChildWorker startIsolated(Path dir, ConnectCluster kafka, String classPath)
      throws Exception {
    Map<String, String> props = kafka.workerProperties("isolated", false);
    props.put("plugin.path", PLUGIN.toAbsolutePath().getParent().toString());
    return ChildWorker.start(dir, "isolated", props, classPath);
  }
}
