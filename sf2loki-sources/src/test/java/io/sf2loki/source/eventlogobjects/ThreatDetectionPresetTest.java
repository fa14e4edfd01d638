package io.sf2loki.source.eventlogobjects;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.registry.ProviderRegistry;
import io.sf2loki.shape.OverlapGuard;
import io.sf2loki.spi.SourceProvider;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreatDetectionPresetTest {

  @Test
  void threatDetectionReadsTheStoresOfAllSevenAnomalyFamiliesByEventDate() {
    ConfigReader root =
        EventLogObjectsConfigTest.root("sources.eventlog_objects { presets = [threat_detection] }");
    EventLogObjectsConfig c = EventLogObjectsConfig.bind(root.section("sources.eventlog_objects"));
    root.throwIfInvalid();

    assertThat(c.objects())
        .extracting(ObjectSpec::name)
        .containsExactly(
            "ApiAnomalyEventStore",
            "CredentialStuffingEventStore",
            "GuestUserAnomalyEventStore",
            "LoginAnomalyEventStore",
            "ReportAnomalyEventStore",
            "SessionHijackingEventStore",
            "UniversalAnomalyEventStore");
    assertThat(c.objects())
        .allSatisfy(
            o -> {
              assertThat(o.timestampField()).isEqualTo("EventDate");
              assertThat(o.bigObject()).isFalse();
            });
  }

  @Test
  void theObjectAndPubSubPresetsTogetherAreAnOverlapOfEachFamily() {
    ConfigReader root =
        EventLogObjectsConfigTest.root(
            "salesforce { client_id = cid, auth_mode = client_credentials, client_secret = s,"
                + " login_url = \"https://acme.my.salesforce.com\" }, sources {"
                + " eventlog_objects { enabled = true, presets = [threat_detection] },"
                + " pubsub { enabled = true, presets = [threat_detection] } }");
    Map<String, SourceProvider.Factory> enabled = new LinkedHashMap<>();
    for (String type : java.util.List.of("eventlog_objects", "pubsub")) {
      SourceProvider provider =
          ProviderRegistry.sources(getClass().getClassLoader()).all().stream()
              .filter(p -> p.type().equals(type))
              .findFirst()
              .orElseThrow();
      enabled.put(type, provider.configure(root.section("sources." + type)));
    }
    OverlapGuard.check(enabled, root.section("sources"));

    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .hasSize(7)
        .anySatisfy(
            m ->
                assertThat(m)
                    .contains("event category 'universalanomaly' is ingested by more than one"));
  }
}
