package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.TestTiming;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** export from one backend, import into another: every key and the fence epoch survive. */
class StateMoveAcrossBackendsTest {

  private static S3Proxy proxy;

  @TempDir Path dir;

  @BeforeAll
  static void startS3() throws Exception {
    proxy =
        S3Proxy.builder()
            .blobStore(new TransientNio2BlobStore())
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "id", "secret")
            .build();
    proxy.start();
    long deadline = System.nanoTime() + TestTiming.seconds(30).toNanos();
    while (!"STARTED".equals(proxy.getState()) && System.nanoTime() < deadline) {
      Thread.sleep(5); // s3proxy offers no start callback
    }
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + proxy.getPort()))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .httpClient(Apache5HttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("id", "secret")))
            .build()) {
      s3.createBucket(b -> b.bucket("sf2loki-cli-test"));
    }
  }

  @AfterAll
  static void stopS3() throws Exception {
    proxy.stop();
  }

  @Test
  void fileToS3RoundTripKeepsEveryKeyAndTheEpoch() throws Exception {
    StateFixture file = StateFixture.noop(dir);
    file.writeState(
        "{\"apexlog\": \"2026-07-01T00:00:00.000+0000\", \"pubsub:/event/LoginEventStream\":"
            + " \"AAAAAAAH3sQ=\", \"eventlogfile:Login\": \"{\\\"ids\\\": [], \\\"last_created\\\":"
            + " \\\"2026-07-01T00:00:00.000+0000\\\"}\", \"__fence_epoch__\": \"7\"}");
    Path exported = dir.resolve("export.json");
    CliRun export = file.run("state", "export", "--output", exported.toString());
    assertThat(export.exitCode()).as(export.err()).isZero();

    Path s3Config = dir.resolve("s3.conf");
    Files.writeString(
        s3Config,
        Files.readString(file.config).replaceAll("state \\{.*\\}", "")
            + """
            state {
              store = s3
              s3 {
                bucket = sf2loki-cli-test
                key = "moved/state.json"
                region = us-east-1
                endpoint_url = "http://127.0.0.1:%d"
                access_key_id = id
                secret_access_key = secret
              }
            }
            """
                .formatted(proxy.getPort()));
    CliRun imported =
        CliRun.of("--config", s3Config.toString(), "state", "import", exported.toString());
    assertThat(imported.exitCode()).as(imported.err()).isZero();

    CliRun shown = CliRun.of("--config", s3Config.toString(), "state", "show", "--json");
    assertThat(shown.exitCode()).as(shown.err()).isZero();
    assertThat(shown.out())
        .contains("\"fence_epoch\" : \"7\"")
        .contains("\"apexlog\" : \"2026-07-01T00:00:00.000+0000\"")
        .contains("\"pubsub:/event/LoginEventStream\" : \"AAAAAAAH3sQ=\"")
        .contains("eventlogfile:Login");

    Path back = dir.resolve("back.json");
    CliRun reexport =
        CliRun.of("--config", s3Config.toString(), "state", "export", "--output", back.toString());
    assertThat(reexport.exitCode()).isZero();
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.core.type.TypeReference<Map<String, String>> doc =
        new com.fasterxml.jackson.core.type.TypeReference<>() {};
    assertThat(json.readValue(back.toFile(), doc))
        .isEqualTo(json.readValue(exported.toFile(), doc));
  }
}
