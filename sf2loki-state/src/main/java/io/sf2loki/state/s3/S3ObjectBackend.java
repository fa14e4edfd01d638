package io.sf2loki.state.s3;

import io.sf2loki.spi.FailureClass;
import io.sf2loki.state.internal.BackendException;
import io.sf2loki.state.internal.BackendException.Kind;
import io.sf2loki.state.internal.ObjectBackend;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The S3 object behind {@link S3CheckpointStore}; classifies the SDK's failures. */
final class S3ObjectBackend implements ObjectBackend {

  /** Error codes retried as transient besides any status >= 500 (operations.md §1.4). */
  static final Set<String> TRANSIENT_CODES =
      Set.of(
          "SlowDown",
          "InternalError",
          "InternalFailure",
          "ServiceUnavailable",
          "RequestTimeout",
          "RequestTimeTooSkewed",
          "Throttling",
          "ThrottlingException",
          "RequestLimitExceeded");

  private final S3Client s3;
  private final String bucket;
  private final String key;
  private final boolean ownsClient;

  S3ObjectBackend(S3Client s3, String bucket, String key, boolean ownsClient) {
    this.s3 = s3;
    this.bucket = bucket;
    this.key = key;
    this.ownsClient = ownsClient;
  }

  @Override
  public String location() {
    return "s3://" + bucket + "/" + key;
  }

  @Override
  public Optional<StoredObject> read() {
    try {
      ResponseBytes<GetObjectResponse> got =
          s3.getObjectAsBytes(GetObjectRequest.builder().bucket(bucket).key(key).build());
      // the ETag and the body come from the same response
      return Optional.of(new StoredObject(got.asByteArray(), got.response().eTag()));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (S3Exception e) {
      if (e.statusCode() == 404 && !"NoSuchBucket".equals(errorCode(e))) {
        return Optional.empty();
      }
      throw classify("GetObject", e);
    } catch (SdkException e) {
      throw classify("GetObject", e);
    }
  }

  @Override
  public String write(byte[] body, Optional<String> expected) {
    PutObjectRequest.Builder put =
        PutObjectRequest.builder().bucket(bucket).key(key).contentType("application/json");
    expected.ifPresentOrElse(put::ifMatch, () -> put.ifNoneMatch("*"));
    try {
      return s3.putObject(put.build(), RequestBody.fromBytes(body)).eTag();
    } catch (SdkException e) {
      throw classify("PutObject", e);
    }
  }

  private static String errorCode(S3Exception e) {
    return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
  }

  @Override
  public void delete() {
    try {
      s3.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(key).build());
    } catch (SdkException e) {
      throw classify("DeleteObject", e);
    }
  }

  @Override
  public ObjectBackend sibling(String suffix) {
    return new S3ObjectBackend(s3, bucket, key + suffix, false);
  }

  @Override
  public String neverAVersion() {
    return "\"sf2loki-probe-no-such-etag\"";
  }

  @Override
  public void close() {
    if (ownsClient) {
      s3.close();
    }
  }

  /** Error codes of requests refused for their credentials or signature. */
  static final Set<String> DENIED_CODES =
      Set.of(
          "AccessDenied",
          "InvalidAccessKeyId",
          "SignatureDoesNotMatch",
          "ExpiredToken",
          "InvalidToken",
          "TokenRefreshRequired",
          "AllAccessDisabled");

  /**
   * What the loop and the engine do with {@code e}: 412/409 re-read; 5xx, the {@link
   * #TRANSIENT_CODES} and transport errors are retried, then transient; 401/403 and the {@link
   * #DENIED_CODES} (and credentials that cannot be loaded) are access denied, {@code NoSuchBucket}
   * a missing bucket, any other 4xx rejected: permanent.
   */
  BackendException classify(String operation, SdkException e) {
    if (e instanceof S3Exception s3e) {
      int status = s3e.statusCode();
      String code = errorCode(s3e);
      String what = operation + " answered HTTP " + status + (code == null ? "" : " " + code);
      if (status == 412 || status == 409) {
        return new BackendException(Kind.PRECONDITION_FAILED, what, e, unavailable());
      }
      if (status >= 500 || TRANSIENT_CODES.contains(code)) {
        return new BackendException(Kind.TRANSIENT, what, e, unavailable());
      }
      return new BackendException(Kind.PERMANENT, what, e, refused(status, code));
    }
    if (e instanceof AbortedException) {
      return new BackendException(
          Kind.PERMANENT, operation + " was cancelled", e, unavailable()); // an interrupt
    }
    if (e instanceof SdkClientException && !noCredentials(e)) {
      return new BackendException(
          Kind.TRANSIENT, operation + " failed: " + e.getMessage(), e, unavailable());
    }
    FailureClass failure =
        noCredentials(e)
            ? FailureClass.permanent(
                "store_access_denied",
                location(),
                "give sf2loki AWS credentials: state.s3.access_key_id and secret_access_key, or"
                    + " the default AWS chain (environment, profile, instance role)")
            : refused(0, null);
    return new BackendException(
        Kind.PERMANENT, operation + " failed: " + e.getMessage(), e, failure);
  }

  private FailureClass unavailable() {
    return FailureClass.transientFailure("store_unavailable", location());
  }

  private FailureClass refused(int status, String code) {
    if (status == 401 || status == 403 || DENIED_CODES.contains(code)) {
      return FailureClass.permanent(
          "store_access_denied",
          location(),
          "check the credentials (state.s3.access_key_id, secret_access_key, session_token, or the"
              + " default AWS chain) and that they may s3:GetObject and s3:PutObject "
              + location());
    }
    if ("NoSuchBucket".equals(code)) {
      return FailureClass.permanent(
          "store_missing_bucket",
          location(),
          "create the bucket " + bucket + ", or fix state.s3.bucket (and region / endpoint_url)");
    }
    return FailureClass.permanent(
        "store_rejected",
        location(),
        "the S3 service rejects the request as configured: check state.s3 (bucket, key, region,"
            + " endpoint_url, path_style)");
  }

  private static boolean noCredentials(SdkException e) {
    return String.valueOf(e.getMessage()).contains("Unable to load credentials");
  }
}
