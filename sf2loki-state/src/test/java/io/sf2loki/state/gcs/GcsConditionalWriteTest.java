package io.sf2loki.state.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.gcs.FakeGcsServer.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Generation preconditions, lost responses, conflicts and transient faults against the fake. */
class GcsConditionalWriteTest {

  private static GcsFixture gcs;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final List<Duration> sleeps = new ArrayList<>();
  private String object;

  @BeforeAll
  static void startGcs() throws Exception {
    gcs = new GcsFixture();
  }

  @AfterAll
  static void stopGcs() throws Exception {
    gcs.stop();
  }

  @BeforeEach
  void freshObject(TestInfo info) {
    object = "it/" + info.getDisplayName().replaceAll("[^A-Za-z]", "") + "/state.json";
  }

  private GcsCheckpointStore store() {
    return gcs.store(object, metrics, sleeps);
  }

  private double counter(String name, String... tags) {
    var c = metrics.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void createUsesGenerationZeroAndReplaceTheLastGeneration() {
    GcsCheckpointStore store = store();
    store.commit(Map.of("k", "1"), Fence.NONE);
    long generation = gcs.server.object(GcsFixture.BUCKET, object).orElseThrow().generation();
    store.commit(Map.of("k", "2"), Fence.NONE);
    assertThat(gcs.server.requests())
        .filteredOn(r -> r.startsWith("UPLOAD " + GcsFixture.BUCKET + "/" + object))
        .containsExactly(
            "UPLOAD " + GcsFixture.BUCKET + "/" + object + " ifGenerationMatch=0",
            "UPLOAD " + GcsFixture.BUCKET + "/" + object + " ifGenerationMatch=" + generation);
  }

  @Test
  void bodyIsReadAtTheGenerationTheMetadataNamed() {
    gcs.server.put(GcsFixture.BUCKET, object, "{\"k\": \"v\"}".getBytes());
    long generation = gcs.server.object(GcsFixture.BUCKET, object).orElseThrow().generation();
    assertThat(store().load("k")).contains("v");
    assertThat(gcs.server.requests())
        .contains("DOWNLOAD " + GcsFixture.BUCKET + "/" + object + " generation=" + generation);
  }

  @Test
  void lostResponseOfAnAppliedUploadIsRecognisedAsOurOwnWrite() {
    GcsCheckpointStore store = store();
    store.commit(Map.of("k", "1"), new FakeTerm("a", 1));
    gcs.server.dropResponseOfNext(Operation.UPLOAD);
    store.commit(Map.of("k", "2"), new FakeTerm("a", 1));
    assertThat(store().load("k")).contains("2");
    assertThat(counter("sf2loki_checkpoint_write_retries", "reason", "transient")).isEqualTo(1);
    assertThat(counter("sf2loki_checkpoint_commit_failures")).isZero();
  }

  @Test
  void serverErrorsAreRetriedWithJitteredBackoff() {
    gcs.server.failNext(Operation.UPLOAD, 503);
    gcs.server.failNext(Operation.UPLOAD, 500);
    store().commit(Map.of("k", "1"), Fence.NONE);
    assertThat(store().load("k")).contains("1");
    assertThat(sleeps).hasSize(2);
  }

  @Test
  void transientFailuresGiveUpAfterFourAttempts() {
    for (int i = 0; i < 4; i++) {
      gcs.server.failNext(Operation.GET_METADATA, 503);
    }
    assertThatThrownBy(store()::loadAll)
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("gs://" + GcsFixture.BUCKET + "/" + object)
        .hasMessageContaining("after 4 attempts");
    assertThat(sleeps).hasSize(3);
  }

  @Test
  void forbiddenIsNotRetried() {
    gcs.server.failNext(Operation.UPLOAD, 403);
    assertThatThrownBy(() -> store().commit(Map.of("k", "1"), Fence.NONE))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("403");
    assertThat(sleeps).isEmpty();
  }

  @Test
  void concurrentWriterWithEqualEpochIsMergedAndRetried() {
    GcsCheckpointStore leader = store();
    leader.commit(Map.of("a", "1"), new FakeTerm("a", 4));
    store().commit(Map.of("b", "operator"), Fence.NONE);
    leader.commit(Map.of("a", "2"), new FakeTerm("a", 4));
    assertThat(store().loadAll())
        .containsOnly(
            Map.entry("a", "2"), Map.entry("b", "operator"), Map.entry("__fence_epoch__", "4"));
    assertThat(counter("sf2loki_checkpoint_write_retries", "reason", "conflict")).isEqualTo(1);
  }

  @Test
  void concurrentWriterWithHigherEpochFencesUsAfterThe412() {
    GcsCheckpointStore stale = store();
    stale.commit(Map.of("a", "1"), new FakeTerm("old", 4));
    store().commit(Map.of("a", "new"), new FakeTerm("new", 5));
    assertThatThrownBy(() -> stale.commit(Map.of("a", "2"), new FakeTerm("old", 4)))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("epoch 5");
    assertThat(store().load("a")).contains("new");
  }

  @Test
  void racingFencedWritersNeverLoseAKeyOrLowerTheEpoch() throws Exception {
    List<Thread> writers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String key = "w" + i;
      GcsCheckpointStore store = store();
      writers.add(new Thread(() -> store.commit(Map.of(key, "x"), new FakeTerm(key, 3))));
    }
    writers.forEach(Thread::start);
    for (Thread t : writers) {
      t.join(20_000);
    }
    Map<String, String> doc = store().loadAll();
    assertThat(doc)
        .containsKeys("w0", "w1", "w2", "w3", "w4", "w5")
        .containsEntry("__fence_epoch__", "3");
  }
}
