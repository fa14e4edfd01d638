package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.engine.shard.MigrationPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python sf2loki's multi-org state file, left by a {@code file_lease} leader at epoch 7, moved
 * by {@code state migrate}: each org's document gets epoch 8, the daemon's leaders claim above it
 * and resume every org and source exactly where the Python one stopped.
 */
class PythonCutoverFileTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void everyOrgResumesExactlyWhereThePythonOneStoppedAfterTheStateFileIsMigrated()
      throws Exception {
    try (PythonCutover cutover = new PythonCutover()) {
      Path state = dir.resolve("state.json");
      Files.writeString(state, cutover.pythonDocument(Map.of("__fence_epoch__", "7")));
      byte[] before = Files.readAllBytes(state);
      String hocon =
          cutover.config(
              """
              state.file.path = "%s"
              coordinate { type = file_lease
                           file_lease { path = "%s", ttl = 3s, renew_interval = 1s } }
              """
                  .formatted(state, dir.resolve("leader.lease")));

      MigrationPlan plan = PythonCutover.migrate(hocon);

      assertThat(plan.moved()).isEqualTo(6);
      assertThat(document("state-prod.json"))
          .containsEntry("__fence_epoch__", "8")
          .containsEntry("__migrated_from__", state.toString());
      cutover.daemonResumesEveryOrgAndSourceExactlyWhereThePythonOneStopped(hocon);
      assertThat(Long.parseLong(document("state-emea.json").get("__fence_epoch__")))
          .as("the org's leader claimed an epoch above the carried one")
          .isGreaterThan(8);
      assertThat(Files.readAllBytes(state))
          .as("the Python document is only read")
          .isEqualTo(before);
    }
  }

  private Map<String, String> document(String name) throws Exception {
    return JSON.readValue(dir.resolve(name).toFile(), new TypeReference<>() {});
  }
}
