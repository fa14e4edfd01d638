package io.sf2loki.state.s3;

import io.sf2loki.config.Urls;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Secret;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code state.s3} section.
 *
 * @param bucket the bucket
 * @param key the object key
 * @param region the region; the SDK's default chain when empty
 * @param endpoint an S3-compatible endpoint (MinIO, R2, Ceph), when set
 * @param pathStyle path-style addressing (default: true exactly when an endpoint is set)
 * @param accessKeyId static access key id; the default AWS credentials chain when empty
 * @param secretAccessKey static secret key, with {@code accessKeyId}
 * @param sessionToken optional session token, with static keys
 * @param requestTimeout timeout of each HTTP attempt
 * @param maxAttempts attempts per operation for transient failures
 */
public record S3StoreConfig(
    String bucket,
    String key,
    Optional<String> region,
    Optional<URI> endpoint,
    boolean pathStyle,
    Optional<String> accessKeyId,
    Optional<Secret> secretAccessKey,
    Optional<Secret> sessionToken,
    Duration requestTimeout,
    int maxAttempts) {

  public S3StoreConfig {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    Objects.requireNonNull(sessionToken, "sessionToken");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
  }

  /** {@code s3://bucket/key}. */
  public String location() {
    return "s3://" + bucket + "/" + key;
  }

  /** Binds {@code state.s3}, recording every problem on {@code r}. */
  public static S3StoreConfig bind(ConfigSection r) {
    String bucket = r.string("bucket");
    if (bucket.isEmpty()) {
      r.problem("bucket", r.path("bucket") + " is required when state.store is s3");
    } else if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
      r.problem(
          "bucket",
          r.path("bucket")
              + " ('"
              + bucket
              + "') must be 3-63 lowercase letters, digits, dots or hyphens");
    }
    String key = r.string("key");
    if (key.isEmpty() || key.startsWith("/")) {
      r.problem(
          "key", r.path("key") + " ('" + key + "') must be a non-empty key without a leading /");
    }
    Optional<URI> endpoint = Urls.optional(r, "endpoint_url");
    boolean pathStyle = r.isSet("path_style") ? r.bool("path_style") : endpoint.isPresent();
    Optional<String> accessKeyId = r.optionalString("access_key_id");
    Optional<Secret> secret = r.optionalSecret("secret_access_key");
    if (accessKeyId.isPresent() != secret.isPresent()) {
      r.problem(
          "access_key_id",
          r.path("access_key_id")
              + " and "
              + r.path("secret_access_key")
              + " must be set together (or neither, for the default AWS credentials chain)");
    }
    Optional<Secret> sessionToken = r.optionalSecret("session_token");
    if (sessionToken.isPresent() && accessKeyId.isEmpty()) {
      r.problem(
          "session_token", r.path("session_token") + " needs access_key_id and secret_access_key");
    }
    return new S3StoreConfig(
        bucket,
        key,
        r.optionalString("region"),
        endpoint,
        pathStyle,
        accessKeyId,
        secret,
        sessionToken,
        r.positiveDuration("request_timeout"),
        r.intInRange("max_attempts", 1, 10));
  }
}
