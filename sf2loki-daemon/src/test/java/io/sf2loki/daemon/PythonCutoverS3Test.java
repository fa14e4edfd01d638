package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.engine.shard.MigrationPlan;
import io.sf2loki.testkit.TestTiming;
import java.net.URI;
import java.util.Map;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The Python sf2loki's multi-org state object on S3 (s3proxy), moved by {@code state migrate} into
 * one object per org: the daemon resumes every org and source exactly where the Python one stopped,
 * and the Python object is only read.
 */
class PythonCutoverS3Test {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BUCKET = "sf2loki-python";

  private S3Proxy proxy;
  private S3Client s3;

  @BeforeEach
  void startS3() throws Exception {
    proxy =
        S3Proxy.builder()
            .blobStore(new TransientNio2BlobStore())
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "id", "secret")
            .build();
    proxy.start();
    org.awaitility.Awaitility.await()
        .atMost(TestTiming.seconds(30))
        .pollInterval(java.time.Duration.ofMillis(5))
        .until(() -> "STARTED".equals(proxy.getState())); // s3proxy offers no start callback
    s3 =
        S3Client.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + proxy.getPort()))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .httpClient(Apache5HttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("id", "secret")))
            .build();
    s3.createBucket(b -> b.bucket(BUCKET));
  }

  @AfterEach
  void stopS3() throws Exception {
    s3.close();
    proxy.stop();
  }

  @Test
  void everyOrgResumesExactlyWhereThePythonOneStoppedAfterTheStateObjectIsMigrated()
      throws Exception {
    try (PythonCutover cutover = new PythonCutover()) {
      String python = cutover.pythonDocument(Map.of());
      s3.putObject(b -> b.bucket(BUCKET).key("sf2loki/state.json"), RequestBody.fromString(python));
      String hocon =
          cutover.config(
              """
              state { store = s3
                      s3 { bucket = %s, key = "sf2loki/state.json", region = us-east-1
                           endpoint_url = "http://127.0.0.1:%d"
                           access_key_id = id, secret_access_key = secret } }
              coordinate.type = noop
              """
                  .formatted(BUCKET, proxy.getPort()));

      MigrationPlan plan = PythonCutover.migrate(hocon);

      assertThat(plan.moved()).isEqualTo(6);
      assertThat(object("sf2loki/state-prod.json"))
          .containsEntry("__migrated_from__", "s3://" + BUCKET + "/sf2loki/state.json")
          .containsKey("org=prod:pubsub:/event/LoginEventStream");
      cutover.daemonResumesEveryOrgAndSourceExactlyWhereThePythonOneStopped(hocon);
      assertThat(
              s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("sf2loki/state.json")).asUtf8String())
          .as("the Python object is only read")
          .isEqualTo(python);
    }
  }

  private Map<String, String> object(String key) throws Exception {
    return JSON.readValue(
        s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asUtf8String(),
        new TypeReference<>() {});
  }
}
