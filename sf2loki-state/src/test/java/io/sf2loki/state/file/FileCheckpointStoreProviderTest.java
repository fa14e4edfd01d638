package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.registry.ProviderRegistry;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code file} provider: discovery, defaults, validation. */
class FileCheckpointStoreProviderTest {

  @TempDir Path dir;

  private static ConfigReader state(String hocon) {
    ConfigLoader loader =
        new ConfigLoader(FileCheckpointStoreProviderTest.class.getClassLoader(), Map.of());
    return loader.loadString(hocon).reader().section("state");
  }

  @Test
  void isDiscoveredByTypeFile() {
    assertThat(ProviderRegistry.stores(getClass().getClassLoader()).types()).contains("file");
  }

  @Test
  void defaultsPointAtVarLibWithATenSecondLockTimeout() {
    ConfigReader r = state("");
    FileStoreConfig config = FileStoreConfig.bind(r.section("file"));
    assertThat(r.problems()).isEmpty();
    assertThat(config.path()).isEqualTo(Path.of("/var/lib/sf2loki/state.json"));
    assertThat(config.lockTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.mode().octal()).isEqualTo("0600");
  }

  @Test
  void modeIsAnOctalPermissionStringThatKeepsTheOwnersReadAndWriteBits() {
    ConfigReader ok = state("state.file.mode = \"0660\"");
    assertThat(FileStoreConfig.bind(ok.section("file")).mode().octal()).isEqualTo("0660");
    assertThat(ok.problems()).isEmpty();

    ConfigReader bad = state("state.file.mode = \"rw-rw----\"");
    FileStoreConfig.bind(bad.section("file"));
    assertThat(bad.problems())
        .extracting(ConfigProblem::message)
        .singleElement()
        .satisfies(m -> assertThat(m).startsWith("state.file.mode (rw-rw----) must be an octal"));
  }

  @Test
  void everyProblemIsReportedWithItsKeyPath() {
    ConfigReader r = state("state.file { path = \"\", lock_timeout = 10m }");
    FileStoreConfig.bind(r.section("file"));
    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .anySatisfy(m -> assertThat(m).startsWith("state.file.path"))
        .anySatisfy(m -> assertThat(m).startsWith("state.file.lock_timeout (10m)"));
  }

  @Test
  void factoryCreatesAWorkingStoreWithoutTouchingTheDisk() {
    Path path = dir.resolve("sub/state.json");
    ConfigReader r = state("state.file.path = \"" + path + "\"");
    CheckpointStoreProvider.Factory factory =
        new FileCheckpointStoreProvider().configure(r.section("file"));
    assertThat(factory.location()).isEqualTo(path.toString());
    StoreEnvironment env = new StoreEnvironment(true, Clock.systemUTC(), new SimpleMeterRegistry());
    try (CheckpointStore store = factory.create(env)) {
      assertThat(dir).isEmptyDirectory();
      store.commit(Map.of("k", "v"), Fence.NONE);
      assertThat(store.load("k")).contains("v");
    }
  }
}
