package io.sf2loki.testkit.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.testkit.gcs.FakeGcsServer.Operation;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Scripted faults strike where they are named, in the order queued, and nowhere else. */
@Timeout(10)
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
}
