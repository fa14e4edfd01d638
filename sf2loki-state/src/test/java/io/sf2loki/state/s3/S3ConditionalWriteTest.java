package io.sf2loki.state.s3;

import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.ConditionalCheckpointStore;
import io.sf2loki.state.internal.ConditionalWriteContract;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.state.s3.S3Fixture.Fault;
import io.sf2loki.state.s3.S3Fixture.FaultInjector;
import io.sf2loki.state.s3.S3Fixture.Point;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The conditional-write contract against s3proxy: {@code If-None-Match: *} / {@code If-Match}, with
 * faults from the SDK's execution interceptor (503 SlowDown, 500 InternalError, 403 AccessDenied,
 * connection resets before sending and after the server applied a request).
 */
class S3ConditionalWriteTest extends ConditionalWriteContract {

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
      String object, RetryPolicy retry, StoreEnvironment environment) {
    return new S3CheckpointStore(s3.client, S3Fixture.BUCKET, object, retry, environment);
  }

  @Override
  protected ConditionalCheckpointStore newProbingStore(
      String object, RetryPolicy retry, StoreEnvironment environment) {
    return new S3CheckpointStore(
        new S3ObjectBackend(s3.client, S3Fixture.BUCKET, object, false), retry, environment, true);
  }

  @Override
  protected void ignoreConditionalHeaders() {
    s3.faults.ignoreConditionalHeaders(true);
  }

  @Override
  protected String location(String object) {
    return "s3://" + S3Fixture.BUCKET + "/" + object;
  }

  @Override
  protected void resetFaults() {
    s3.faults.clear();
  }

  @Override
  protected List<Precondition> writePreconditions() {
    return s3.faults.requests.stream()
        .filter(r -> r.startsWith("PutObject"))
        .map(
            r ->
                r.equals("PutObject If-None-Match *")
                    ? Precondition.absent()
                    : r.startsWith("PutObject If-Match ")
                        ? Precondition.matches(r.substring("PutObject If-Match ".length()))
                        : new Precondition("unconditional", r))
        .toList();
  }

  @Override
  protected String currentVersion() {
    return s3.client.headObject(b -> b.bucket(S3Fixture.BUCKET).key(object)).eTag();
  }

  @Override
  protected void loseTheResponseOfTheNextWrite() {
    s3.faults.add(new Fault("PutObject", Point.AFTER_APPLY, FaultInjector.reset()));
  }

  @Override
  protected void failNextWritesTransiently(int count) {
    for (int i = 0; i < count; i++) {
      s3.faults.add(
          new Fault(
              "PutObject",
              Point.BEFORE_SEND,
              i % 2 == 0 ? FaultInjector.status(503, "SlowDown") : FaultInjector.reset()));
    }
  }

  @Override
  protected void failNextReadsTransiently(int count) {
    for (int i = 0; i < count; i++) {
      s3.faults.add(
          new Fault("GetObject", Point.BEFORE_SEND, FaultInjector.status(500, "InternalError")));
    }
  }

  @Override
  protected void forbidTheNextWrite() {
    s3.faults.add(
        new Fault("PutObject", Point.BEFORE_SEND, FaultInjector.status(403, "AccessDenied")));
  }
}
