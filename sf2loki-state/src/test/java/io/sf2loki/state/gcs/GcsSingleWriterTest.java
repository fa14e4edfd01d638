package io.sf2loki.state.gcs;

import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.ConditionalCheckpointStore;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.state.internal.SingleWriterContract;
import io.sf2loki.state.internal.WriterLiveness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Two single-instance daemons on one object, against the testkit's fake GCS. */
class GcsSingleWriterTest extends SingleWriterContract {

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
      String object, RetryPolicy retry, StoreEnvironment environment, WriterLiveness liveness) {
    return new GcsCheckpointStore(
        new GcsObjectBackend(gcs.storage, GcsFixture.BUCKET, object, false),
        retry,
        environment,
        liveness,
        false);
  }

  @Override
  protected String location(String object) {
    return "gs://" + GcsFixture.BUCKET + "/" + object;
  }
}
