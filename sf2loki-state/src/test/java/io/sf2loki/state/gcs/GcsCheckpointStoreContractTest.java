package io.sf2loki.state.gcs;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.tck.CheckpointDocumentContract;
import io.sf2loki.tck.EpochClaimContract;
import io.sf2loki.testkit.gcs.GcsObject;
import java.util.ArrayList;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract against the testkit's fake of the GCS JSON API. */
class GcsCheckpointStoreContractTest extends EpochClaimContract
    implements CheckpointDocumentContract {

  private static GcsFixture gcs;
  private int documents;
  private String object;

  @BeforeAll
  static void startGcs() throws Exception {
    gcs = new GcsFixture();
  }

  @AfterAll
  static void stopGcs() throws Exception {
    gcs.stop();
  }

  @Override
  protected int propertyExamples() {
    return 8;
  }

  @Override
  protected void useNewDocument() {
    object = "contract/" + System.identityHashCode(this) + "-" + ++documents + "/state.json";
  }

  @Override
  protected CheckpointStore newStore() {
    return gcs.store(object, new SimpleMeterRegistry(), new ArrayList<>());
  }

  @Override
  public void writeRaw(byte[] bytes) {
    gcs.server.put(GcsFixture.BUCKET, object, bytes);
  }

  @Override
  public Optional<byte[]> readRaw() {
    return gcs.server.object(GcsFixture.BUCKET, object).map(GcsObject::data);
  }
}
