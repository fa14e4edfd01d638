package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.pubsub.FakePubSub;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loki check (an empty push) and the per-topic Pub/Sub checks (GetTopic). */
class DoctorLokiPubSubTest {

  @TempDir Path dir;
  DoctorFixture fx;
  FakePubSub pubsub;

  @BeforeEach
  void start() throws Exception {
    fx = new DoctorFixture(dir);
    pubsub =
        FakePubSub.builder()
            .standardTopics()
            .orgId("00D000000000001AAA")
            .tokens(fx.sf::isValidToken)
            .start();
  }

  @AfterEach
  void stop() {
    pubsub.close();
    fx.close();
  }

  private String topics(String list) {
    return "sources.pubsub { enabled = true, plaintext = true, endpoint = \""
        + pubsub.target()
        + "\", topics = "
        + list
        + " }\n";
  }

  @Test
  void lokiPassesWithTheTenantAndWritesNoLine() throws Exception {
    JsonNode loki = fx.checkOf("sink.loki.tenant_id = acme\n", "loki");

    assertThat(loki.path("status").asText()).isEqualTo("PASS");
    assertThat(loki.path("detail").asText()).contains("tenant acme").contains("HTTP 204");
    assertThat(fx.loki.entries()).isEmpty();
    assertThat(fx.loki.pushes().get(0).header("x-scope-orgid")).contains("acme");
  }

  @Test
  void lokiRefusingTheCredentialsFailsWithTheTenantAndTokenHint() throws Exception {
    fx.loki.inject(Fault.status(403, 1));

    JsonNode loki = fx.checkOf("", "loki");

    assertThat(loki.path("status").asText()).isEqualTo("FAIL");
    assertThat(loki.path("remedy").asText()).contains("tenant_id").contains("logs:write");
  }

  @Test
  void anUnreachableLokiFailsPointingAtTheUrl() throws Exception {
    JsonNode loki = fx.checkOf("sink.loki.url = \"http://127.0.0.1:9\"\n", "loki");

    assertThat(loki.path("status").asText()).isEqualTo("FAIL");
    assertThat(loki.path("detail").asText()).contains("cannot reach");
    assertThat(loki.path("remedy").asText()).contains("sink.loki.url");
  }

  @Test
  void aSubscribableTopicPasses() throws Exception {
    JsonNode topic =
        fx.checkOf(topics("[\"" + FakePubSub.LOGIN + "\"]"), "pubsub:" + FakePubSub.LOGIN);

    assertThat(topic.path("status").asText()).as(topic.toString()).isEqualTo("PASS");
  }

  @Test
  void aTopicTheUserMayNotSubscribeToFailsNamingThePermission() throws Exception {
    pubsub.canSubscribe(FakePubSub.LOGIN, false);

    JsonNode topic =
        fx.checkOf(topics("[\"" + FakePubSub.LOGIN + "\"]"), "pubsub:" + FakePubSub.LOGIN);

    assertThat(topic.path("status").asText()).isEqualTo("FAIL");
    assertThat(topic.path("detail").asText()).contains("can_subscribe = false");
    assertThat(topic.path("remedy").asText()).contains("View Real-Time Event Monitoring Data");
  }

  @Test
  void anUnknownTopicFailsWithTheGrpcStatus() throws Exception {
    JsonNode topic = fx.checkOf(topics("[\"/event/Nope__e\"]"), "pubsub:/event/Nope__e");

    assertThat(topic.path("status").asText()).isEqualTo("FAIL");
    assertThat(topic.path("detail").asText()).contains("GetTopic /event/Nope__e failed");
  }

  @Test
  void discoveredTopicsAreAWarningThatDoctorCannotCheckThem() throws Exception {
    JsonNode wildcard = fx.checkOf(topics("[\"*\"]"), "pubsub:*");

    assertThat(wildcard.path("status").asText()).isEqualTo("WARN");
    assertThat(wildcard.path("remedy").asText()).contains("sources.pubsub.topics");
  }
}
