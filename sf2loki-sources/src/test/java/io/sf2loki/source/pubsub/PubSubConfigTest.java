package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import org.junit.jupiter.api.Test;

class PubSubConfigTest {

  private static ConfigReader root(String body) {
    return ConfigReader.of(
        ConfigFactory.parseString("sources.pubsub { " + body + " }")
            .withFallback(ConfigFactory.parseResources("reference.conf"))
            .resolve());
  }

  @Test
  void aManagedTopicIsStreamedWithTheManagedSubscriptionNamedForIt() {
    ConfigReader root =
        root(
            "topics = [\"/event/LoginEventStream\", \"/data/AccountChangeEvent\"],"
                + " managed_subscriptions { \"/event/LoginEventStream\" = Login_Managed }");
    PubSubConfig c = PubSubConfig.bind(root.section("sources.pubsub"));
    root.throwIfInvalid();

    assertThat(c.managedSubscription("/event/LoginEventStream")).contains("Login_Managed");
    assertThat(c.managedSubscription("/data/AccountChangeEvent")).isEmpty();
  }

  @Test
  void aManagedTopicThatIsNotSubscribedOrABadNameIsReportedWithItsPath() {
    ConfigReader root =
        root(
            "topics = [\"/event/LoginEventStream\"], managed_subscriptions {"
                + " \"/event/ApiEventStream\" = Api, \"/event/LoginEventStream\" = \"Not a"
                + " name\", \"Login\" = Login_Managed }");
    PubSubConfig.bind(root.section("sources.pubsub"));

    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .containsExactlyInAnyOrder(
            "sources.pubsub.managed_subscriptions.\"/event/ApiEventStream\": /event/ApiEventStream"
                + " is not in topics (list it there, or discover with \"*\")",
            "sources.pubsub.managed_subscriptions.\"/event/LoginEventStream\": 'Not a name' is not"
                + " the developer name of a ManagedEventSubscription",
            "sources.pubsub.managed_subscriptions.\"Login\": not /event/<Name> or /data/<Name>");
  }

  @Test
  void aDiscoveredTopicMayBeManaged() {
    ConfigReader root =
        root("topics = [\"*\"], managed_subscriptions { \"/event/LoginEventStream\" = Login_M }");
    PubSubConfig c = PubSubConfig.bind(root.section("sources.pubsub"));
    root.throwIfInvalid();

    assertThat(c.managedSubscription("/event/LoginEventStream")).contains("Login_M");
  }

  @Test
  void threatDetectionAppendsTheSevenAnomalyChannelsAfterTheTopicsWithoutDoubling() {
    ConfigReader root =
        root(
            "topics = [\"/event/LoginEventStream\", \"/event/SessionHijackingEvent\"],"
                + " presets = [threat_detection]");
    PubSubConfig c = PubSubConfig.bind(root.section("sources.pubsub"));
    root.throwIfInvalid();

    assertThat(c.topics())
        .containsExactly(
            "/event/LoginEventStream",
            "/event/SessionHijackingEvent",
            "/event/ApiAnomalyEvent",
            "/event/CredentialStuffingEvent",
            "/event/GuestUserAnomalyEvent",
            "/event/LoginAnomalyEvent",
            "/event/ReportAnomalyEvent",
            "/event/UniversalAnomalyEvent");
  }

  @Test
  void anUnknownPresetIsReportedWithTheKnownOnes() {
    ConfigReader root = root("presets = [everything]");
    PubSubConfig.bind(root.section("sources.pubsub"));

    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .containsExactly(
            "sources.pubsub.presets: unknown preset 'everything' (known: threat_detection)");
  }
}
