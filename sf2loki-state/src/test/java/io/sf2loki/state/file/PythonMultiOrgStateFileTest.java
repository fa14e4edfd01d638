package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.engine.shard.LegacyDocument;
import io.sf2loki.engine.shard.OrgKeyView;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A state file the Python sf2loki wrote for two orgs is read as is: each org's view of its own
 * document resumes from the org's {@code org=<name>:} keys of the Python file (the first org also
 * from its unprefixed keys), and the first commit takes them over without touching the file.
 */
class PythonMultiOrgStateFileTest {

  private static final StoreEnvironment ENV =
      new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry());

  @TempDir Path dir;
  private Path python;
  private byte[] pythonBytes;

  @BeforeEach
  void copyThePythonFile() throws Exception {
    python = dir.resolve("state.json");
    try (InputStream in = getClass().getResourceAsStream("/python-multi-org-state.json")) {
      pythonBytes = in.readAllBytes();
    }
    Files.write(python, pythonBytes);
  }

  private CheckpointStore file(Path path) {
    return new FileCheckpointStore(FileStoreConfig.of(path), ENV, Ticker.SYSTEM);
  }

  private OrgKeyView view(String org, boolean first) {
    CheckpointStoreProvider.Factory legacy =
        new CheckpointStoreProvider.Factory() {
          @Override
          public String location() {
            return python.toString();
          }

          @Override
          public CheckpointStore create(StoreEnvironment environment) {
            return file(python);
          }
        };
    return OrgKeyView.of(
        file(dir.resolve("state-" + org + ".json")),
        new Shard.Org(org, first, legacy),
        new LegacyDocument(legacy, ENV));
  }

  @Test
  void eachOrgResumesFromItsKeysOfThePythonFile() {
    try (OrgKeyView prod = view("prod", true);
        OrgKeyView emea = view("emea", false)) {
      assertThat(prod.loadAll())
          .containsEntry("pubsub:/event/LoginEventStream", "AAAAAAAH3sQ=")
          .containsKey("eventlogfile:Login")
          .containsKey("apexlog") // unprefixed, no prefixed twin: the first org's
          .doesNotContainKeys("eventlog_objects:LoginEvent", "__fence_epoch__");
      assertThat(emea.loadAll())
          .containsEntry("egress:budget", "{\"date\": \"2026-07-01\", \"bytes\": 1024}")
          .containsKey("eventlog_objects:LoginEvent")
          .doesNotContainKeys("apexlog", "pubsub:/event/LoginEventStream");
      assertThat(emea.loadAll().get("eventlog_objects:LoginEvent")).contains("Z\\u00fcrich");
    }
  }

  @Test
  void theFirstCommitTakesTheOrgsPositionsOverIntoItsOwnDocumentAndLeavesThePythonFileAsItWas()
      throws Exception {
    try (OrgKeyView prod = view("prod", true)) {
      prod.loadAll();
      prod.commit(Map.of("pubsub:/event/LoginEventStream", "AAAAAAAH3sU="), Fence.NONE);
    }

    try (CheckpointStore own = file(dir.resolve("state-prod.json"))) {
      assertThat(own.loadAll())
          .containsEntry("org=prod:pubsub:/event/LoginEventStream", "AAAAAAAH3sU=")
          .containsKey("org=prod:eventlogfile:Login")
          .containsKey("org=prod:apexlog")
          .containsEntry("__migrated_from__", python.toString())
          .doesNotContainKey("org=emea:eventlog_objects:LoginEvent");
    }
    assertThat(Files.readAllBytes(python)).isEqualTo(pythonBytes);
  }

  @Test
  void theViewOfAFileStoreKeepsItsEpochCapabilities() {
    try (OrgKeyView prod = view("prod", true)) {
      assertThat(prod).isInstanceOf(EpochFloor.class).isInstanceOf(EpochClaim.class);
    }
  }
}
