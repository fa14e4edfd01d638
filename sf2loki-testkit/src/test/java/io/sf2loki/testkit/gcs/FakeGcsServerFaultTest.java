package io.sf2loki.testkit.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.testkit.ScaledTimeout;
import io.sf2loki.testkit.gcs.FakeGcsServer.Operation;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scripted faults strike where they are named, in the order queued, and nowhere else. */
@ScaledTimeout(seconds = 10)
class FakeGcsServerFaultTest {

  private FakeGcsServer gcs;
  private GcsHttp http;

  @BeforeEach
  void start() throws Exception {
    gcs = FakeGcsServer.start();
    http = new GcsHttp(gcs.endpoint());
  }

  @AfterEach
  void stop() {
    gcs.close();
  }

  @Test
  void droppedResponseOfADeleteStillDeletes() {
    gcs.put("bkt", "d.json", "x".getBytes());
    gcs.dropResponseOfNext(Operation.DELETE);

    assertThatThrownBy(() -> http.delete("d.json")).isInstanceOf(IOException.class);

    assertThat(gcs.object("bkt", "d.json")).isEmpty();
  }

  @Test
  void aFaultForAnotherOperationDoesNotHideAFaultBehindIt() throws Exception {
    gcs.put("bkt", "m.json", "x".getBytes());
    gcs.failNext(Operation.UPLOAD, 503);
    gcs.failNext(Operation.GET_METADATA, 500);

    assertThat(http.metadata("m.json").statusCode()).isEqualTo(500);
    assertThat(http.upload("m.json", "y", 0).statusCode()).isEqualTo(503);
    assertThat(http.metadata("m.json").statusCode()).isEqualTo(200);
  }

  @Test
  void aStatusFaultFailsBeforeAnythingIsApplied() throws Exception {
    gcs.failNext(Operation.UPLOAD, 503);

    assertThat(http.upload("f.json", "1", 0).statusCode()).isEqualTo(503);
    assertThat(gcs.object("bkt", "f.json")).isEmpty();
    assertThat(http.upload("f.json", "1", 0).statusCode()).isEqualTo(200);
  }

  @Test
  void aDroppedResponseOfAnUploadStillStoresIt() {
    gcs.dropResponseOfNext(Operation.UPLOAD);

    assertThatThrownBy(() -> http.upload("f.json", "1", 0)).isInstanceOf(IOException.class);

    assertThat(gcs.object("bkt", "f.json")).isPresent();
  }

  @Test
  void aDroppedRequestAppliesNothing() {
    gcs.inject(GcsFault.dropRequest(Operation.UPLOAD));

    assertThatThrownBy(() -> http.upload("f.json", "1", 0)).isInstanceOf(IOException.class);

    assertThat(gcs.object("bkt", "f.json")).isEmpty();
    assertThat(gcs.requests()).containsExactly("UPLOAD bkt/f.json ifGenerationMatch=0");
  }

  @Test
  void aDroppedResponseLosesARefusalToo() {
    GcsObject stored = gcs.put("bkt", "f.json", "1".getBytes());
    gcs.inject(GcsFault.dropResponse(Operation.UPLOAD));

    assertThatThrownBy(() -> http.upload("f.json", "2", 0)).isInstanceOf(IOException.class);

    assertThat(gcs.object("bkt", "f.json").orElseThrow().generation())
        .isEqualTo(stored.generation());
  }

  @Test
  void pendingFaultsCountsFaultsNotYetStruckAndClearForgetsThem() throws Exception {
    gcs.failNext(Operation.DOWNLOAD, 500);
    gcs.failNext(Operation.DELETE, 500);
    assertThat(gcs.pendingFaults()).isEqualTo(2);

    gcs.clearFaults();

    assertThat(gcs.pendingFaults()).isZero();
    assertThat(http.delete("missing.json").statusCode()).isEqualTo(404);
  }

  @Test
  void aStatusFaultAnswersAnErrorStatus() {
    assertThatThrownBy(() -> GcsFault.status(Operation.UPLOAD, 200))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("400..599");
  }
}
