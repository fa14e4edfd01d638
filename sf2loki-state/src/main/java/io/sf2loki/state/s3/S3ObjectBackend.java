package io.sf2loki.state.s3;

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
      if (e.statusCode() == 404) {
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

  static BackendException classify(String operation, SdkException e) {
    if (e instanceof S3Exception s3e) {
      int status = s3e.statusCode();
      String code = s3e.awsErrorDetails() == null ? "" : s3e.awsErrorDetails().errorCode();
      String what = operation + " answered HTTP " + status + (code == null ? "" : " " + code);
      if (status == 412 || status == 409) {
        return new BackendException(Kind.PRECONDITION_FAILED, what, e);
      }
      if (status >= 500 || TRANSIENT_CODES.contains(code)) {
        return new BackendException(Kind.TRANSIENT, what, e);
      }
      return new BackendException(Kind.PERMANENT, what, e);
    }
    if (e instanceof AbortedException) {
      return new BackendException(Kind.PERMANENT, operation + " was cancelled", e);
    }
    if (e instanceof SdkClientException) {
      return new BackendException(Kind.TRANSIENT, operation + " failed: " + e.getMessage(), e);
    }
    return new BackendException(Kind.PERMANENT, operation + " failed: " + e.getMessage(), e);
  }
}
