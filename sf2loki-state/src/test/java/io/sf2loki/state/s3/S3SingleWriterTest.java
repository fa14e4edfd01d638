package io.sf2loki.state.s3;

import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.ConditionalCheckpointStore;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.state.internal.SingleWriterContract;
import io.sf2loki.state.internal.WriterLiveness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Two single-instance daemons on one object, against s3proxy. */
class S3SingleWriterTest extends SingleWriterContract {

  private static S3Fixture s3;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = new S3Fixture();
  }

  @AfterAll
  static void stopS3() throws Exception {
    s3.stop();
  }

  @Override
  protected ConditionalCheckpointStore newStore(
      String object, RetryPolicy retry, StoreEnvironment environment, WriterLiveness liveness) {
    return new S3CheckpointStore(
        new S3ObjectBackend(s3.client, S3Fixture.BUCKET, object, false),
        retry,
        environment,
        liveness,
        false);
  }

  @Override
  protected String location(String object) {
    return "s3://" + S3Fixture.BUCKET + "/" + object;
  }
}
