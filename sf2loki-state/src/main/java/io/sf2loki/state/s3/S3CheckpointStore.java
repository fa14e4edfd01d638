package io.sf2loki.state.s3;

import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.ConditionalCheckpointStore;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.state.internal.StoreMetrics;
import io.sf2loki.state.internal.WriterLiveness;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Checkpoints in one S3 object ({@code s3://bucket/key}), created with {@code If-None-Match: *} and
 * replaced with {@code If-Match: <etag>}; the ETag always comes from the response that carried the
 * body. Fencing, merging and the 412 handling are those of {@link ConditionalCheckpointStore}.
 *
 * <p>The client should have SDK retries disabled: a retried PUT that the server already applied
 * comes back 412, which this store resolves by re-reading, but only if it sees the failure.
 */
public final class S3CheckpointStore extends ConditionalCheckpointStore {

  /**
   * A store over a client the caller owns (and closes).
   *
   * @param s3 the client
   * @param bucket the bucket
   * @param key the object key
   * @param retry transient-failure policy
   * @param environment metrics, and whether this is a single instance ({@code noop})
   */
  public S3CheckpointStore(
      S3Client s3, String bucket, String key, RetryPolicy retry, StoreEnvironment environment) {
    this(new S3ObjectBackend(s3, bucket, key, false), retry, environment, false);
  }

  /**
   * @param probe run the {@link io.sf2loki.state.internal.ConditionalWriteProbe} before the first
   *     write (the launchers' stores do; a caller owning its client may call {@link
   *     #probeConditionalWrites()} itself)
   */
  S3CheckpointStore(
      S3ObjectBackend backend, RetryPolicy retry, StoreEnvironment environment, boolean probe) {
    this(backend, retry, environment, WriterLiveness.standard(environment.threads()), probe);
  }

  /**
   * @param liveness the single instance's heartbeat and how it judges another's stamp (tests drive
   *     its time and beats)
   */
  S3CheckpointStore(
      S3ObjectBackend backend,
      RetryPolicy retry,
      StoreEnvironment environment,
      WriterLiveness liveness,
      boolean probe) {
    super(
        backend,
        retry,
        new StoreMetrics(environment.metrics(), "s3"),
        environment,
        liveness,
        probe);
  }

  /**
   * A store that builds its own client from {@code config} (lazily, on first use) and closes it.
   */
  public static S3CheckpointStore create(S3StoreConfig config, StoreEnvironment environment) {
    S3Client client = S3Clients.build(config);
    return new S3CheckpointStore(
        new S3ObjectBackend(client, config.bucket(), config.key(), true),
        RetryPolicy.standard(config.maxAttempts()),
        environment,
        true);
  }
}
