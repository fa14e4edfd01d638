package io.sf2loki.state.gcs;

import io.sf2loki.config.Urls;
import io.sf2loki.spi.ConfigSection;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code state.gcs} section.
 *
 * @param bucket the bucket
 * @param objectName the object name
 * @param serviceFile a service-account JSON key; Application Default Credentials when empty
 * @param projectId the project, when the credentials do not imply one
 * @param endpoint another JSON API endpoint (an emulator), when set
 * @param requestTimeout connect and read timeout of each request
 * @param maxAttempts attempts per operation for transient failures
 */
public record GcsStoreConfig(
    String bucket,
    String objectName,
    Optional<Path> serviceFile,
    Optional<String> projectId,
    Optional<URI> endpoint,
    Duration requestTimeout,
    int maxAttempts) {

  public GcsStoreConfig {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(objectName, "objectName");
    Objects.requireNonNull(serviceFile, "serviceFile");
    Objects.requireNonNull(projectId, "projectId");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
  }

  /** {@code gs://bucket/object}. */
  public String location() {
    return "gs://" + bucket + "/" + objectName;
  }

  /** Binds {@code state.gcs}, recording every problem on {@code r}. */
  public static GcsStoreConfig bind(ConfigSection r) {
    String bucket = r.string("bucket");
    if (bucket.isEmpty()) {
      r.problem("bucket", r.path("bucket") + " is required when state.store is gcs");
    } else if (!bucket.matches("[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]")) {
      r.problem(
          "bucket",
          r.path("bucket")
              + " ('"
              + bucket
              + "') is not a valid bucket name (lowercase letters,"
              + " digits, dots, hyphens, underscores)");
    }
    String objectName = r.string("object_name");
    if (objectName.isEmpty() || objectName.startsWith("/")) {
      r.problem(
          "object_name",
          r.path("object_name")
              + " ('"
              + objectName
              + "') must be a non-empty name without a leading /");
    }
    Optional<Path> serviceFile = r.optionalString("service_file").map(Path::of);
    return new GcsStoreConfig(
        bucket,
        objectName,
        serviceFile,
        r.optionalString("project_id"),
        Urls.optional(r, "endpoint_url"),
        r.positiveDuration("request_timeout"),
        r.intInRange("max_attempts", 1, 10));
  }
}
