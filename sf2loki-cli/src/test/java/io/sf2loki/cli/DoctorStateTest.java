package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.testkit.gcs.FakeGcsServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state check: the live document is read, a doctor-owned probe is written and removed. */
class DoctorStateTest {

  @TempDir Path dir;
  DoctorFixture fx;
  FakeGcsServer gcs;

  @BeforeEach
  void start() throws Exception {
    fx = new DoctorFixture(dir);
    gcs = FakeGcsServer.start();
  }

  @AfterEach
  void stop() {
    fx.close();
    gcs.close();
  }

  private String onGcs(String coordinate) {
    return "state { store = gcs, gcs { bucket = acme-state, object_name = \"sf2loki/state.json\","
        + " endpoint_url = \""
        + gcs.endpoint()
        + "\" } }\n"
        + coordinate;
  }

  @Test
  void aCorruptStateFileFailsNamingTheFileAndIsLeftUntouched() throws Exception {
    Files.writeString(fx.state, "{not json");

    JsonNode state = fx.checkOf("", "state");

    assertThat(state.path("status").asText()).isEqualTo("FAIL");
    assertThat(state.path("detail").asText()).contains(fx.state.toString());
    assertThat(Files.readString(fx.state)).isEqualTo("{not json");
  }

  @Test
  void aGcsBucketThatHonoursPreconditionsPassesAndKeepsOnlyTheLiveObject() throws Exception {
    gcs.put("acme-state", "sf2loki/state.json", "{\"apexlog\": \"x\"}".getBytes());

    JsonNode state = fx.checkOf(onGcs(""), "state");

    assertThat(state.path("status").asText()).as(state.toString()).isEqualTo("PASS");
    assertThat(state.path("detail").asText())
        .contains("gs://acme-state/sf2loki/state.json readable (1 checkpoint(s)")
        .contains("sf2loki/state.json.sf2loki-doctor-probe");
    assertThat(gcs.object("acme-state", "sf2loki/state.json.sf2loki-doctor-probe")).isEmpty();
    assertThat(gcs.object("acme-state", "sf2loki/state.json.sf2loki-doctor-probe.sf2loki-probe"))
        .isEmpty();
    assertThat(gcs.object("acme-state", "sf2loki/state.json.sf2loki-probe")).isEmpty();
    assertThat(new String(gcs.object("acme-state", "sf2loki/state.json").orElseThrow().data()))
        .isEqualTo("{\"apexlog\": \"x\"}");
  }

  @Test
  void aBucketIgnoringPreconditionsFailsUnderALeaseCoordinator() throws Exception {
    gcs.ignorePreconditions(true);
    String lease =
        "coordinate { type = file_lease, file_lease { path = \""
            + dir.resolve("leader.lease")
            + "\", holder_id = doctor-test } }\n";

    JsonNode state = fx.checkOf(onGcs(lease), "state");

    assertThat(state.path("status").asText()).isEqualTo("FAIL");
    assertThat(state.path("detail").asText()).contains("ignores conditional headers");
    assertThat(state.path("remedy").asText()).contains("If-Match");
    assertThat(gcs.object("acme-state", "sf2loki/state.json.sf2loki-doctor-probe")).isEmpty();
  }

  @Test
  void aBucketIgnoringPreconditionsOnlyWarnsUnderNoop() throws Exception {
    gcs.ignorePreconditions(true);

    JsonNode state = fx.checkOf(onGcs(""), "state");

    assertThat(state.path("status").asText()).isEqualTo("WARN");
    assertThat(state.path("remedy").asText()).contains("noop");
  }
}
