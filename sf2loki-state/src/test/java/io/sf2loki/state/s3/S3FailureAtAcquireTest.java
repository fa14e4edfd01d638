package io.sf2loki.state.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.tck.AcquireRun;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3's failures at acquire, through the engine, against s3proxy: a 403 for bad credentials and a
 * missing bucket end it after its attempts naming the object and the fix; an unreachable endpoint
 * is backed off from, counted, until it answers.
 */
class S3FailureAtAcquireTest {

  private static S3Fixture s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3Fixture();
  }

  @AfterAll
  static void stop() throws Exception {
    s3.stop();
  }

  @BeforeEach
  void clearFaults() {
    s3.faults.clear();
  }

  private static S3CheckpointStore store(S3Client client, String bucket) {
    RetryPolicy once =
        new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), d -> {}, () -> 0);
    return new S3CheckpointStore(
        client,
        bucket,
        "state.json",
        once,
        new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry()));
  }

  private static S3Client clientWithSecret(String secret) {
    return S3Client.builder()
        .endpointOverride(s3.endpoint())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .httpClient(Apache5HttpClient.create())
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(S3Fixture.ID, secret)))
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  @Test
  void badCredentialsEndTheEngineWithAccessDenied() throws Exception {
    try (S3Client wrong = clientWithSecret("not-the-secret");
        S3CheckpointStore store = store(wrong, S3Fixture.BUCKET);
        AcquireRun run = AcquireRun.alwaysLeader(store, AcquireRun.FAST)) {
      EngineOutcome outcome = run.outcome();

      assertThat(outcome)
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure().reason()).isEqualTo("store_access_denied");
                assertThat(f.failure().resource()).isEqualTo("s3://sf2loki-test/state.json");
                assertThat(f.failure().fix()).contains("s3:PutObject");
                assertThat(f.describe()).contains("403");
                assertThat(f.attempts()).isEqualTo(3);
              });
    }
  }

  @Test
  void aMissingBucketEndsTheEngine() throws Exception {
    try (S3CheckpointStore store = store(s3.client, "no-such-bucket");
        AcquireRun run = AcquireRun.alwaysLeader(store, AcquireRun.FAST)) {
      assertThat(run.outcome())
          .isInstanceOfSatisfying(
              EngineOutcome.Failed.class,
              f -> {
                assertThat(f.failure().reason()).isEqualTo("store_missing_bucket");
                assertThat(f.failure().fix()).contains("state.s3.bucket");
              });
    }
  }

  @Test
  void anUnreachableEndpointIsBackedOffFromAndTheTermRunsOnceItAnswers() throws Exception {
    for (int i = 0; i < 5; i++) {
      s3.faults.add(
          new S3Fixture.Fault(
              "GetObject", S3Fixture.Point.BEFORE_SEND, S3Fixture.FaultInjector.reset()));
    }
    try (S3CheckpointStore store = store(s3.client, S3Fixture.BUCKET);
        AcquireRun run = AcquireRun.alwaysLeader(store, AcquireRun.FAST)) {
      assertThat(run.outcome()).isInstanceOf(EngineOutcome.Finished.class);
      assertThat(run.failures("transient", "store_unavailable")).isEqualTo(5);
      assertThat(run.campaigns()).isEqualTo(6);
    }
  }
}
