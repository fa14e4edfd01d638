package io.sf2loki.daemon.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

class S3SoakStoreTest {

  private static S3SoakStore store;
  private int writesBefore;

  @BeforeAll
  static void start() {
    store = S3SoakStore.start(); // s3proxy takes seconds to start: one for the class
  }

  @AfterAll
  static void stop() {
    store.close();
  }

  @BeforeEach
  void mark() {
    writesBefore = store.writes().size();
  }

  private List<SoakStore.Write> newWrites() {
    List<SoakStore.Write> all = store.writes();
    return all.subList(writesBefore, all.size());
  }

  private static S3Client client(String writer) {
    String config = store.stateConfig(writer);
    String endpoint = config.replaceAll("(?s).*endpoint_url = \"([^\"]+)\".*", "$1");
    return S3Client.builder()
        .endpointOverride(URI.create(endpoint))
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .httpClient(Apache5HttpClient.create())
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create("soak-" + writer, "soak-secret")))
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  private static void put(S3Client s3, String json) {
    s3.putObject(
        b -> b.bucket(S3SoakStore.BUCKET).key(S3SoakStore.KEY), RequestBody.fromString(json));
  }

  @Test
  void everyWriteThatLandsIsLoggedWithItsWriterInTheOrderItLanded() {
    try (S3Client a = client("a-1");
        S3Client b = client("b-1")) {
      put(a, "{\"__fence_epoch__\": \"1\"}");
      put(b, "{\"__fence_epoch__\": \"2\", \"k\": \"v\"}");
    }

    assertThat(newWrites())
        .containsExactly(
            new SoakStore.Write("a-1", Map.of("__fence_epoch__", "1")),
            new SoakStore.Write("b-1", Map.of("__fence_epoch__", "2", "k", "v")));
    assertThat(store.document()).containsEntry("k", "v");
  }

  @Test
  void aWriteConditionalOnAStaleEtagIsRefusedAndNotLogged() {
    try (S3Client a = client("a-1")) {
      put(a, "{\"n\": \"1\"}");
      String stale = a.headObject(h -> h.bucket(S3SoakStore.BUCKET).key(S3SoakStore.KEY)).eTag();
      put(a, "{\"n\": \"2\"}");

      assertThatThrownBy(
              () ->
                  a.putObject(
                      p -> p.bucket(S3SoakStore.BUCKET).key(S3SoakStore.KEY).ifMatch(stale),
                      RequestBody.fromString("{\"n\": \"3\"}")))
          .isInstanceOf(S3Exception.class)
          .extracting(e -> ((S3Exception) e).statusCode())
          .isEqualTo(412);
      assertThatThrownBy(
              () ->
                  a.putObject(
                      p -> p.bucket(S3SoakStore.BUCKET).key(S3SoakStore.KEY).ifNoneMatch("*"),
                      RequestBody.fromString("{\"n\": \"4\"}")))
          .isInstanceOf(S3Exception.class);
    }

    assertThat(newWrites()).hasSize(2);
    assertThat(store.document()).containsEntry("n", "2");
  }
}
