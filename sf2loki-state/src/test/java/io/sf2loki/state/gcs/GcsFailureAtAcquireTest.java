package io.sf2loki.state.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.tck.AcquireRun;
import io.sf2loki.testkit.gcs.FakeGcsServer.Operation;
import java.util.ArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GCS's failures at acquire, through the engine, against the testkit's fake: a 403 ends it after
 * its attempts naming the object and the fix; 503s are backed off from, counted, until it answers.
 */
class GcsFailureAtAcquireTest {

  private GcsFixture gcs;

  @BeforeEach
  void start() throws Exception {
    gcs = new GcsFixture();
  }

  @AfterEach
  void stop() throws Exception {
    gcs.stop();
  }

  private GcsCheckpointStore store() {
    return gcs.store("state.json", new SimpleMeterRegistry(), new ArrayList<>());
  }

  @Test
  void aForbiddenBucketEndsTheEngineWithAccessDenied() throws Exception {
    for (int i = 0; i < 3; i++) {
      gcs.server.failNext(Operation.GET_METADATA, 403);
    }
    try (GcsCheckpointStore store = store();
        AcquireRun run = AcquireRun.alwaysLeader(store, AcquireRun.FAST)) {
      assertThat(run.outcome())
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure().reason()).isEqualTo("store_access_denied");
                assertThat(f.failure().resource()).isEqualTo("gs://sf2loki-test/state.json");
                assertThat(f.failure().fix()).contains("storage.objects.create");
                assertThat(f.attempts()).isEqualTo(3);
              });
      assertThat(gcs.server.pendingFaults()).isZero();
    }
  }

  @Test
  void anUnavailableServiceIsBackedOffFromAndTheTermRunsOnceItAnswers() throws Exception {
    for (int i = 0; i < 12; i++) {
      gcs.server.failNext(Operation.GET_METADATA, 503); // 4 attempts per failure, 3 failures
    }
    try (GcsCheckpointStore store = store();
        AcquireRun run = AcquireRun.alwaysLeader(store, AcquireRun.FAST)) {
      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Finished.class);
      assertThat(run.failures("transient", "store_unavailable")).isEqualTo(3);
    }
  }
}
