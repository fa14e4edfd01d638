package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secret in {@code sf2loki.config} through a Connect config provider ({@code ${file:...}}):
 * Connect resolves it before the connector validates or starts, and stores only the reference.
 */
class ConfigProviderClusterTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "s3cr3t-only-in-the-file";

  @TempDir Path dir;

  @Test
  void aClientSecretFromTheFileProviderLogsInAndIsNeverStoredResolved() throws Exception {
    Path secrets = dir.resolve("salesforce.properties");
    Files.writeString(secrets, "client_secret=" + SECRET + "\n");
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(2, ChronoUnit.HOURS);
    try (FakeSalesforce org =
            FakeSalesforce.builder().clientId("cid").clientSecret(SECRET).build();
        ConnectCluster cluster = ConnectCluster.start(dir.resolve("cluster"), 1)) {
      org.addLogFile("Login", "Hourly", hour, hour.plus(70, ChronoUnit.MINUTES), 10);
      String reference = "${file:" + secrets + ":client_secret}";
      Map<String, String> config = new HashMap<>();
      config.put("connector.class", Sf2LokiSourceConnector.class.getName());
      config.put("topic", "secrets");
      config.put(
          "sf2loki.config",
          """
          salesforce { auth_mode = client_credentials, login_url = "%s", client_id = cid
                       client_secret = "%s" }
          sources.eventlogfile { enabled = true, event_types = [Login], poll_interval = 1s, lookback = 12h }
          """
              .formatted(org.baseUrl(), reference));

      var created =
          cluster.send("PUT", "connectors/secrets/config", JSON.writeValueAsString(config));

      assertThat(created.statusCode()).as(created.body()).isIn(200, 201);
      await()
          .atMost(TestTiming.seconds(90))
          .until(
              () ->
                  cluster.readAll("secrets").stream().filter(r -> r.value() != null).count() >= 10);
      assertThat(cluster.send("GET", "connectors/secrets/config", null).body())
          .contains(reference.replace("\\", "\\\\"))
          .doesNotContain(SECRET);
      assertThat(cluster.send("GET", "connectors/secrets/tasks", null).body())
          .doesNotContain(SECRET);
    }
  }
}
