package io.sf2loki.state.gcs;

import com.google.cloud.BaseServiceException;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.state.internal.BackendException;
import io.sf2loki.state.internal.BackendException.Kind;
import io.sf2loki.state.internal.ObjectBackend;
import java.util.Optional;

/** The GCS object behind {@link GcsCheckpointStore}; classifies the client's failures. */
final class GcsObjectBackend implements ObjectBackend {

  private static final int GENERATION_RACES = 3;

  private final Storage storage;
  private final String bucket;
  private final String name;
  private final boolean ownsClient;

  GcsObjectBackend(Storage storage, String bucket, String name, boolean ownsClient) {
    this.storage = storage;
    this.bucket = bucket;
    this.name = name;
    this.ownsClient = ownsClient;
  }

  @Override
  public String location() {
    return "gs://" + bucket + "/" + name;
  }

  @Override
  public Optional<StoredObject> read() {
    for (int race = 0; ; race++) {
      Blob meta;
      try {
        meta = storage.get(BlobId.of(bucket, name));
      } catch (BaseServiceException e) {
        throw classify("get metadata", e);
      }
      if (meta == null) {
        return Optional.empty();
      }
      long generation = meta.getGeneration();
      try {
        // read the body at exactly that generation, so body and generation belong together
        byte[] body = storage.readAllBytes(BlobId.of(bucket, name, generation));
        return Optional.of(new StoredObject(body, Long.toString(generation)));
      } catch (BaseServiceException e) {
        if (e.getCode() == 404 && race < GENERATION_RACES) {
          continue; // replaced between the two calls: read the new generation
        }
        throw classify("download", e);
      }
    }
  }

  @Override
  public String write(byte[] body, Optional<String> expected) {
    BlobId id =
        expected
            .map(g -> BlobId.of(bucket, name, Long.parseLong(g)))
            .orElse(BlobId.of(bucket, name));
    BlobInfo info = BlobInfo.newBuilder(id).setContentType("application/json").build();
    Storage.BlobTargetOption precondition =
        expected.isPresent()
            ? Storage.BlobTargetOption.generationMatch()
            : Storage.BlobTargetOption.doesNotExist();
    try {
      return Long.toString(storage.create(info, body, precondition).getGeneration());
    } catch (BaseServiceException e) {
      throw classify("upload", e);
    }
  }

  @Override
  public void delete() {
    try {
      storage.delete(BlobId.of(bucket, name)); // false when absent: nothing to do
    } catch (BaseServiceException e) {
      throw classify("delete", e);
    }
  }

  @Override
  public ObjectBackend sibling(String suffix) {
    return new GcsObjectBackend(storage, bucket, name + suffix, false);
  }

  @Override
  public String neverAVersion() {
    return "1"; // generations are microsecond timestamps
  }

  @Override
  public void close() {
    if (ownsClient) {
      try {
        storage.close();
      } catch (Exception e) { // Storage.close() declares Exception
        throw new IllegalStateException("closing the GCS client failed", e);
      }
    }
  }

  /**
   * What the loop and the engine do with {@code e}: 412 re-reads; transport errors, 408, 429 and
   * 5xx are retried, then transient; 401/403 are access denied, 404 (the object itself reads as
   * absent, so a 404 is the bucket) a missing bucket, any other 4xx rejected: permanent.
   */
  BackendException classify(String operation, BaseServiceException e) {
    int code = e.getCode();
    String what =
        operation + (code > 0 ? " answered HTTP " + code : " failed") + ": " + e.getMessage();
    if (code == 412) {
      return new BackendException(Kind.PRECONDITION_FAILED, what, e, unavailable());
    }
    if (code == 0 || code == 408 || code == 429 || code >= 500) {
      return new BackendException(Kind.TRANSIENT, what, e, unavailable());
    }
    return new BackendException(Kind.PERMANENT, what, e, refused(code));
  }

  private FailureClass unavailable() {
    return FailureClass.transientFailure("store_unavailable", location());
  }

  private FailureClass refused(int code) {
    if (code == 401 || code == 403) {
      return FailureClass.permanent(
          "store_access_denied",
          location(),
          "check the credentials (state.gcs.service_file or Application Default Credentials) and"
              + " grant storage.objects.get, storage.objects.create and storage.objects.delete on"
              + " the bucket "
              + bucket);
    }
    if (code == 404) {
      return FailureClass.permanent(
          "store_missing_bucket",
          location(),
          "create the bucket " + bucket + ", or fix state.gcs.bucket");
    }
    return FailureClass.permanent(
        "store_rejected",
        location(),
        "the GCS service rejects the request as configured: check state.gcs (bucket, object_name,"
            + " endpoint_url)");
  }
}
