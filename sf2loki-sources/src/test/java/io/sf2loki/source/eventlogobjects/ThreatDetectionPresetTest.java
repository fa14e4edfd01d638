package io.sf2loki.source.eventlogobjects;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigReader;
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
}
