package io.sf2loki.state.gcs;

import com.google.cloud.storage.Storage;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.ConditionalCheckpointStore;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.state.internal.StoreMetrics;
import io.sf2loki.state.internal.WriterLiveness;

/**
 * Checkpoints in one GCS object ({@code gs://bucket/object}), created with {@code
 * ifGenerationMatch=0} and replaced with {@code ifGenerationMatch=<generation>}; the body is read
 * at the generation the metadata named. Fencing, merging and the 412 handling are those of {@link
 * ConditionalCheckpointStore}.
 */
public final class GcsCheckpointStore extends ConditionalCheckpointStore {

  /**
   * A store over a client the caller owns (and closes). The client should not retry by itself.
   *
   * @param storage the client
   * @param bucket the bucket
   * @param objectName the object name
   * @param retry transient-failure policy
   * @param environment metrics, and whether this is a single instance ({@code noop})
   */
  public GcsCheckpointStore(
      Storage storage,
      String bucket,
      String objectName,
      RetryPolicy retry,
      StoreEnvironment environment) {
    this(new GcsObjectBackend(storage, bucket, objectName, false), retry, environment, false);
  }

  /**
   * @param probe run the {@link io.sf2loki.state.internal.ConditionalWriteProbe} before the first
   *     write (the launchers' stores do; a caller owning its client may call {@link
   *     #probeConditionalWrites()} itself)
   */
  GcsCheckpointStore(
      GcsObjectBackend backend, RetryPolicy retry, StoreEnvironment environment, boolean probe) {
    this(backend, retry, environment, WriterLiveness.standard(environment.threads()), probe);
  }

  /**
   * @param liveness the single instance's heartbeat and how it judges another's stamp (tests drive
   *     its time and beats)
   */
  GcsCheckpointStore(
      GcsObjectBackend backend,
      RetryPolicy retry,
      StoreEnvironment environment,
      WriterLiveness liveness,
      boolean probe) {
    super(
        backend,
        retry,
        new StoreMetrics(environment.metrics(), "gcs"),
        environment,
        liveness,
        probe);
  }

  /** A store with its own client built from {@code config}; closing the store closes it. */
  public static GcsCheckpointStore create(GcsStoreConfig config, StoreEnvironment environment) {
    Storage storage = GcsClients.build(config);
    return new GcsCheckpointStore(
        new GcsObjectBackend(storage, config.bucket(), config.objectName(), true),
        RetryPolicy.standard(config.maxAttempts()),
        environment,
        true);
  }
}
