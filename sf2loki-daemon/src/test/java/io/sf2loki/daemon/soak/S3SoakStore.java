package io.sf2loki.daemon.soak;

import io.sf2loki.testkit.TestTiming;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gaul.s3proxy.AccessGrant;
import org.gaul.s3proxy.S3ErrorCode;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.S3ProxyException;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The {@code s3} store on s3proxy in this JVM (an in-memory blob store). Each daemon incarnation
 * signs with its own access key id, and s3proxy hands every request to the blob store of that
 * identity, so the store keeps a true write log: every object write that landed, with its writer.
 *
 * <p>s3proxy evaluates {@code If-Match} / {@code If-None-Match} and then writes, in two steps, so
 * two racing conditional writes could both pass; the blob store here checks the conditions again
 * atomically with the write, as S3 does, so the soak tests sf2loki and not s3proxy's race.
 */
final class S3SoakStore implements SoakStore {

  static final String BUCKET = "sf2loki-soak";
  static final String KEY = "sf2loki/state.json";
  private static final String SECRET = "soak-secret";
  private static final String IDENTITY_PREFIX = "soak-";

  private final S3Proxy proxy;
  private final BlobStore blobs;
  private final List<Write> writes = new ArrayList<>();

  private S3SoakStore(S3Proxy proxy, BlobStore blobs) {
    this.proxy = proxy;
    this.blobs = blobs;
  }

  static S3SoakStore start() {
    BlobStore blobs = new TransientNio2BlobStore();
    blobs.createContainer(BUCKET);
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(blobs)
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, IDENTITY_PREFIX + "admin", SECRET)
            .build();
    S3SoakStore store = new S3SoakStore(proxy, blobs);
    proxy.setBlobStoreLocator(
        (identity, container, blob) ->
            identity != null && identity.startsWith(IDENTITY_PREFIX)
                ? new AccessGrant(
                    SECRET, store.new Recording(identity.substring(IDENTITY_PREFIX.length())))
                : null);
    try {
      proxy.start();
      // s3proxy offers no start callback
      org.awaitility.Awaitility.await()
          .atMost(TestTiming.seconds(30))
          .pollInterval(java.time.Duration.ofMillis(5))
          .until(() -> "STARTED".equals(proxy.getState()));
    } catch (Exception e) {
      throw new IllegalStateException("cannot start s3proxy", e);
    }
    return store;
  }

  @Override
  public Kind kind() {
    return Kind.S3;
  }

  @Override
  public String stateConfig(String writer) {
    return """
        state { store = s3, s3 { bucket = %s, key = "%s", endpoint_url = "http://127.0.0.1:%d"
                region = us-east-1, access_key_id = "%s", secret_access_key = "%s"
                request_timeout = 5s } }
        """
        .formatted(BUCKET, KEY, proxy.getPort(), IDENTITY_PREFIX + writer, SECRET);
  }

  @Override
  public Map<String, String> document() {
    try (ResponseInputStream<GetObjectResponse> in = blobs.getBlob(BUCKET, KEY)) {
      return SoakStore.parse(in.readAllBytes());
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Map.of();
      }
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public synchronized List<Write> writes() {
    return List.copyOf(writes);
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop s3proxy", e);
    }
  }

  private void checkConditions(PutObjectRequest request) {
    HeadObjectResponse current = blobs.blobMetadataIfPresent(BUCKET, KEY);
    boolean refused =
        request.ifNoneMatch() != null && current != null
            || request.ifMatch() != null
                && (current == null
                    || !unquoted(current.eTag()).equals(unquoted(request.ifMatch())));
    if (refused) {
      throw new S3ProxyException(S3ErrorCode.PRECONDITION_FAILED);
    }
  }

  private static String unquoted(String etag) {
    return etag == null ? "" : etag.replace("\"", "");
  }

  /** The blob store one writer sees: writes of the checkpoint object are logged once they land. */
  private final class Recording extends ForwardingBlobStore {
    private final String writer;

    Recording(String writer) {
      super(blobs);
      this.writer = writer;
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
      if (!BUCKET.equals(request.bucket()) || !KEY.equals(request.key())) {
        return super.putBlob(request, body);
      }
      byte[] bytes;
      try {
        bytes = body.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      // One write at a time, its conditions checked with it, logged in the order writes land.
      synchronized (S3SoakStore.this) {
        checkConditions(request);
        PutObjectResponse response = super.putBlob(request, new ByteArrayInputStream(bytes));
        writes.add(new Write(writer, SoakStore.parse(bytes)));
        return response;
      }
    }
  }
}
