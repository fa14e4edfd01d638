package io.sf2loki.state.s3;

import io.sf2loki.state.internal.ConditionalWriteProbe;
import io.sf2loki.testkit.TestTiming;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * s3proxy in-process (transient store) plus an SDK client with retries off and a fault injector
 * that fails the next call of an operation before it is sent or after the server applied it.
 */
final class S3Fixture {

  static final String BUCKET = "sf2loki-test";
  static final String ID = "id";
  static final String SECRET = "secret";

  final S3Proxy proxy;
  final S3Client client;
  final FaultInjector faults = new FaultInjector();

  S3Fixture() throws Exception {
    proxy =
        S3Proxy.builder()
            .blobStore(new TransientNio2BlobStore())
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ID, SECRET)
            .build();
    proxy.start();
    // s3proxy offers no start callback
    org.awaitility.Awaitility.await()
        .atMost(TestTiming.seconds(30))
        .pollInterval(java.time.Duration.ofMillis(5))
        .until(() -> "STARTED".equals(proxy.getState()));
    client =
        S3Client.builder()
            .endpointOverride(endpoint())
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .httpClient(Apache5HttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ID, SECRET)))
            .overrideConfiguration(
                c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()).addExecutionInterceptor(faults))
            .build();
    client.createBucket(b -> b.bucket(BUCKET));
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + proxy.getPort());
  }

  void stop() throws Exception {
    client.close();
    proxy.stop();
  }

  /** Where a fault strikes. */
  enum Point {
    /** The request never reaches the server. */
    BEFORE_SEND,
    /** The server applied the request but the response is lost. */
    AFTER_APPLY
  }

  /** A scripted failure of the next call of one operation. */
  record Fault(String operation, Point point, Supplier<RuntimeException> error) {}

  /**
   * Injects scripted faults and records every request's operation and conditional headers. In the
   * mode "ignores conditional headers" it strips {@code If-Match}/{@code If-None-Match} before the
   * request is signed and sent, so s3proxy applies it unconditionally, as a broken S3-compatible
   * endpoint that accepts and ignores them would.
   */
  static final class FaultInjector implements ExecutionInterceptor {
    private final Deque<Fault> scripted = new ArrayDeque<>();
    final List<String> requests = new ArrayList<>();
    private boolean ignoresConditionalHeaders;

    synchronized void ignoreConditionalHeaders(boolean on) {
      ignoresConditionalHeaders = on;
    }

    @Override
    public synchronized SdkHttpRequest modifyHttpRequest(
        Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
      if (!ignoresConditionalHeaders) {
        return context.httpRequest();
      }
      return context.httpRequest().toBuilder()
          .removeHeader("If-Match")
          .removeHeader("If-None-Match")
          .build();
    }

    synchronized void add(Fault fault) {
      scripted.add(fault);
    }

    synchronized void clear() {
      scripted.clear();
      requests.clear();
      ignoresConditionalHeaders = false;
    }

    static Supplier<RuntimeException> status(int status, String code) {
      return () ->
          S3Exception.builder()
              .statusCode(status)
              .message(code)
              .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(code).build())
              .build();
    }

    static Supplier<RuntimeException> reset() {
      return () -> SdkClientException.create("Connection reset (injected)");
    }

    @Override
    public synchronized void beforeTransmission(
        Context.BeforeTransmission context, ExecutionAttributes attributes) {
      String op = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
      Map<String, List<String>> headers = context.httpRequest().headers();
      String path = context.httpRequest().encodedPath();
      String condition =
          headers.containsKey("If-Match")
              ? " If-Match " + headers.get("If-Match").get(0)
              : headers.containsKey("If-None-Match")
                  ? " If-None-Match " + headers.get("If-None-Match").get(0)
                  : "";
      if (path.endsWith(ConditionalWriteProbe.SUFFIX)) {
        return; // the probe's writes are not the store's; its tests read the object itself
      }
      requests.add(op + condition);
      strike(op, Point.BEFORE_SEND);
    }

    @Override
    public synchronized void afterTransmission(
        Context.AfterTransmission context, ExecutionAttributes attributes) {
      strike(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), Point.AFTER_APPLY);
    }

    private void strike(String op, Point point) {
      Fault next = scripted.peek();
      if (next != null && next.operation().equals(op) && next.point() == point) {
        scripted.poll();
        throw next.error().get();
      }
    }
  }
}
