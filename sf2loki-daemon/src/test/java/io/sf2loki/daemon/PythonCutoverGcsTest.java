package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.engine.shard.MigrationPlan;
import io.sf2loki.testkit.gcs.FakeGcsServer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Python sf2loki's multi-org state object on GCS (the testkit's fake), moved by {@code state
 * migrate} into one object per org: the daemon resumes every org and source exactly where the
 * Python one stopped, and the Python object is only read.
 */
class PythonCutoverGcsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BUCKET = "sf2loki-python";

  private FakeGcsServer gcs;

  @BeforeEach
  void startGcs() throws Exception {
    gcs = FakeGcsServer.start();
  }

  @AfterEach
  void stopGcs() {
    gcs.close();
  }

  @Test
  void everyOrgResumesExactlyWhereThePythonOneStoppedAfterTheStateObjectIsMigrated()
      throws Exception {
    try (PythonCutover cutover = new PythonCutover()) {
      String python = cutover.pythonDocument(Map.of());
      gcs.put(BUCKET, "sf2loki/state.json", python.getBytes(StandardCharsets.UTF_8));
      String hocon =
          cutover.config(
              """
              state { store = gcs
                      gcs { bucket = %s, object_name = "sf2loki/state.json"
                            endpoint_url = "%s", project_id = p } }
              coordinate.type = noop
              """
                  .formatted(BUCKET, gcs.endpoint()));

      MigrationPlan plan = PythonCutover.migrate(hocon);

      assertThat(plan.moved()).isEqualTo(6);
      assertThat(object("sf2loki/state-emea.json"))
          .containsEntry("__migrated_from__", "gs://" + BUCKET + "/sf2loki/state.json")
          .containsKey("org=emea:eventlog_objects:" + PythonCutover.OBJECT);
      cutover.daemonResumesEveryOrgAndSourceExactlyWhereThePythonOneStopped(hocon);
      assertThat(
              new String(
                  gcs.object(BUCKET, "sf2loki/state.json").orElseThrow().data(),
                  StandardCharsets.UTF_8))
          .as("the Python object is only read")
          .isEqualTo(python);
    }
  }

  private Map<String, String> object(String name) throws Exception {
    return JSON.readValue(gcs.object(BUCKET, name).orElseThrow().data(), new TypeReference<>() {});
  }
}
