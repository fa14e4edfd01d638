package io.sf2loki.state.s3;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.tck.CheckpointDocumentContract;
import io.sf2loki.tck.EpochClaimContract;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** The store contract against s3proxy over the real S3 wire protocol. */
class S3CheckpointStoreContractTest extends EpochClaimContract
    implements CheckpointDocumentContract {

  private static S3Fixture s3;
  private int documents;
  private String key;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = new S3Fixture();
  }

  @AfterAll
  static void stopS3() throws Exception {
    s3.stop();
  }

  @Override
  protected int propertyExamples() {
    return 8;
  }

  /**
   * s3proxy evaluates If-Match against the blob's metadata and then writes, in two steps, so two
   * racing conditional PUTs can both pass; real S3 applies them atomically (a loser gets 412, or
   * 409 ConditionalRequestConflict, both read as a lost race). The racing logic this would test is
   * the shared {@code ConditionalCheckpointStore}, which the GCS contract runs against a
   * linearizable fake.
   */
  @Override
  protected boolean backendWritesConditionallyAtomically() {
    return false;
  }

  @Override
  protected void useNewDocument() {
    key = "contract/" + System.identityHashCode(this) + "-" + ++documents + "/state.json";
  }

  @Override
  protected CheckpointStore newStore() {
    RetryPolicy noWait =
        new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(2), d -> {}, () -> 0.5);
    StoreEnvironment env =
        new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry());
    return new S3CheckpointStore(s3.client, S3Fixture.BUCKET, key, noWait, env);
  }

  @Override
  public void writeRaw(byte[] bytes) {
    s3.client.putObject(b -> b.bucket(S3Fixture.BUCKET).key(key), RequestBody.fromBytes(bytes));
  }

  @Override
  public Optional<byte[]> readRaw() {
    try {
      return Optional.of(
          s3.client.getObjectAsBytes(b -> b.bucket(S3Fixture.BUCKET).key(key)).asByteArray());
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    }
  }
}
