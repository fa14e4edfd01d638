package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged Connect plugin directory: what a worker's plugin.path gets. Failsafe runs it after
 * packaging and names the directory; a surefire run picked by -Dtest skips it.
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
}
