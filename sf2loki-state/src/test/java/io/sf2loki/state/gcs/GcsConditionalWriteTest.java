package io.sf2loki.state.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.ConditionalCheckpointStore;
import io.sf2loki.state.internal.ConditionalWriteContract;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.tck.FakeTerm;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.gcs.FakeGcsServer.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The conditional-write contract against the testkit's fake of the GCS JSON API ({@code
 * ifGenerationMatch}), plus what only GCS has: bodies read at the generation the metadata named,
 * and racing writers on a linearizable server.
 */
class GcsConditionalWriteTest extends ConditionalWriteContract {

  private static GcsFixture gcs;

  @BeforeAll
  static void startGcs() throws Exception {
    gcs = new GcsFixture();
  }

  @AfterAll
  static void stopGcs() throws Exception {
    gcs.stop();
  }

  @Override
  protected ConditionalCheckpointStore newStore(
      String object, RetryPolicy retry, StoreEnvironment environment) {
    return new GcsCheckpointStore(gcs.storage, GcsFixture.BUCKET, object, retry, environment);
  }

  @Override
  protected ConditionalCheckpointStore newProbingStore(
      String object, RetryPolicy retry, StoreEnvironment environment) {
    return new GcsCheckpointStore(
        new GcsObjectBackend(gcs.storage, GcsFixture.BUCKET, object, false),
        retry,
        environment,
        true);
  }

  @Override
  protected void ignoreConditionalHeaders() {
    gcs.server.ignorePreconditions(true);
  }

  @Override
  protected String location(String object) {
    return "gs://" + GcsFixture.BUCKET + "/" + object;
  }

  @Override
  protected void resetFaults() {
    // faults are consumed by the requests they target; requests are filtered by object name
    gcs.server.ignorePreconditions(false);
  }

  @Override
  protected List<Precondition> writePreconditions() {
    String upload = "UPLOAD " + GcsFixture.BUCKET + "/" + object;
    return gcs.server.requests().stream()
        .filter(r -> r.startsWith(upload))
        .map(r -> r.substring(upload.length()))
        .map(
            c ->
                c.equals(" ifGenerationMatch=0")
                    ? Precondition.absent()
                    : c.startsWith(" ifGenerationMatch=")
                        ? Precondition.matches(c.substring(" ifGenerationMatch=".length()))
                        : new Precondition("unconditional", c))
        .toList();
  }

  @Override
  protected String currentVersion() {
    return Long.toString(gcs.server.object(GcsFixture.BUCKET, object).orElseThrow().generation());
  }

  @Override
  protected void loseTheResponseOfTheNextWrite() {
    gcs.server.dropResponseOfNext(Operation.UPLOAD);
  }

  @Override
  protected void failNextWritesTransiently(int count) {
    for (int i = 0; i < count; i++) {
      gcs.server.failNext(Operation.UPLOAD, i % 2 == 0 ? 503 : 500);
    }
  }

  @Override
  protected void failNextReadsTransiently(int count) {
    for (int i = 0; i < count; i++) {
      gcs.server.failNext(Operation.GET_METADATA, 503);
    }
  }

  @Override
  protected void forbidTheNextWrite() {
    gcs.server.failNext(Operation.UPLOAD, 403);
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
  void racingFencedWritersNeverLoseAKeyOrLowerTheEpoch() throws Exception {
    List<Thread> writers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String key = "w" + i;
      ConditionalCheckpointStore store = store();
      writers.add(new Thread(() -> store.commit(Map.of(key, "x"), new FakeTerm(key, 3))));
    }
    writers.forEach(Thread::start);
    for (Thread t : writers) {
      t.join(TestTiming.seconds(20).toMillis());
    }
    Map<String, String> doc = store().loadAll();
    assertThat(doc)
        .containsKeys("w0", "w1", "w2", "w3", "w4", "w5")
        .containsEntry("__fence_epoch__", "3");
  }
}
