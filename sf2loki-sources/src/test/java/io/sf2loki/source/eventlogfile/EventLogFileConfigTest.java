package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventLogFileConfigTest {

  private static ConfigReader section(String hocon) {
    return new ConfigLoader(EventLogFileConfigTest.class.getClassLoader(), Map.of())
        .loadString(hocon)
        .reader()
        .section("sources.eventlogfile");
  }

  @Test
  void defaultsDiscoverHourlyFilesWithAFiveMinuteSettleWindow() {
    ConfigReader r = section("");
    EventLogFileConfig c = EventLogFileConfig.bind(r);
    assertThat(r.problems()).isEmpty();
    assertThat(c.discovers()).isTrue();
    assertThat(c.interval()).isEqualTo("Hourly");
    assertThat(c.settleWindow()).isEqualTo(Duration.ofMinutes(5));
    assertThat(c.pageSize()).isEqualTo(1000);
  }

  @Test
  void theWindowIsUnboundedByDefault() {
    assertThat(EventLogFileConfig.bind(section("")).window()).isEqualTo(ElfWindow.UNBOUNDED);
  }

  @Test
  void windowBoundsAcceptAnInstantOrADateReadAsUtcMidnight() {
    ConfigReader r =
        section(
            "sources.eventlogfile { start = \"2026-07-01\", until = \"2026-07-02T06:30:00+02:00\" }");
    ElfWindow window = EventLogFileConfig.bind(r).window();
    assertThat(r.problems()).isEmpty();
    assertThat(window.start()).contains(java.time.Instant.parse("2026-07-01T00:00:00Z"));
    assertThat(window.until()).contains(java.time.Instant.parse("2026-07-02T04:30:00Z"));
  }

  @Test
  void aMalformedOrCrossedWindowIsAProblemNamingTheKey() {
    ConfigReader malformed = section("sources.eventlogfile.start = yesterday");
    EventLogFileConfig.bind(malformed);
    ConfigReader crossed =
        section("sources.eventlogfile { start = \"2026-07-02\", until = \"2026-07-01\" }");
    EventLogFileConfig.bind(crossed);
    assertThat(malformed.problems())
        .extracting(ConfigProblem::message)
        .singleElement()
        .satisfies(m -> assertThat(m).startsWith("sources.eventlogfile.start ('yesterday')"));
    assertThat(crossed.problems())
        .extracting(ConfigProblem::message)
        .singleElement()
        .satisfies(
            m -> assertThat(m).startsWith("sources.eventlogfile.until (2026-07-01T00:00:00Z)"));
  }

  @Test
  void dailyFilesHaveNoSettleWindowByDefault() {
    assertThat(
            EventLogFileConfig.bind(section("sources.eventlogfile.interval = Daily"))
                .settleWindow())
        .isZero();
  }

  @Test
  void everyProblemIsReportedWithItsKeyPath() {
    ConfigReader r =
        section(
            "sources.eventlogfile { event_types = [\"Login\", \"bad type\"], interval = Weekly,"
                + " page_size = 5000 }");
    EventLogFileConfig.bind(r);
    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .anySatisfy(
            m -> assertThat(m).startsWith("sources.eventlogfile.event_types entry 'bad type'"))
        .anySatisfy(m -> assertThat(m).startsWith("sources.eventlogfile.interval must be one of"))
        .anySatisfy(m -> assertThat(m).startsWith("sources.eventlogfile.page_size (5000)"));
  }

  @Test
  void typeEntriesCarryShapingAndDiscoveredTypesInheritTheWildcardSampleRate() {
    ConfigReader r =
        section(
            "sources.eventlogfile { event_types = [Login, {name = API, sample = 0.25, labels ="
                + " [API_TYPE], structured_metadata_fields = []}, {name = \"*\", sample = 0.5}],"
                + " structured_metadata_fields = [USER_ID] }");
    EventLogFileConfig c = EventLogFileConfig.bind(r);
    assertThat(r.problems()).isEmpty();
    assertThat(c.explicitTypes()).containsExactly("Login", "API");
    assertThat(c.discovers()).isTrue();
    assertThat(c.shaping().metadataFields()).containsExactly("USER_ID");
    assertThat(c.shapingOf("Login").sampleRate()).isEqualTo(1.0);
    assertThat(c.shapingOf("API").sampleRate()).isEqualTo(0.25);
    assertThat(c.shapingOf("API").labels()).containsExactly("API_TYPE");
    assertThat(c.shapingOf("API").metadataFields()).contains(java.util.List.of());
    assertThat(c.shapingOf("Report").sampleRate()).isEqualTo(0.5);
    assertThat(c.shapingOf("Report").eventType()).isEqualTo("Report");
  }

  @Test
  void typeEntryMistakesAreReportedWithTheirPaths() {
    ConfigReader r =
        section(
            "sources.eventlogfile { event_types = [{name = Login, sample = 2, colour = red},"
                + " {name = API, labels = [source]}, {name = \"*\", labels = [USER_TYPE]}, Login] }");
    EventLogFileConfig.bind(r);
    assertThat(r.problems())
        .extracting(ConfigProblem::message)
        .contains(
            "sources.eventlogfile.event_types.0.colour is not an event type key (allowed: [labels,"
                + " name, sample, structured_metadata_fields])",
            "sources.eventlogfile.event_types.0.sample (2) must be a number greater than 0 and at"
                + " most 1",
            "sources.eventlogfile.event_types.1.labels: 'source' is reserved and cannot be"
                + " promoted",
            "sources.eventlogfile.event_types.2.labels is not allowed on the * entry; promote"
                + " labels per explicit type",
            "sources.eventlogfile.event_types.3.name: event type 'Login' is listed twice");
  }

  @Test
  void aCommaSeparatedOverrideListsPlainTypes() {
    ConfigReader r = section("sources.eventlogfile.event_types = \"Login, API\"");
    assertThat(EventLogFileConfig.bind(r).explicitTypes()).containsExactly("Login", "API");
    assertThat(r.problems()).isEmpty();
  }

  @Test
  void providerReportsAnUnparsablePrivateKey() {
    ConfigReader root =
        new ConfigLoader(EventLogFileConfigTest.class.getClassLoader(), Map.of())
            .loadString(
                "salesforce { client_id = x, username = u, private_key = \"not a pem\" }\n"
                    + "sources.eventlogfile.enabled = true")
            .reader();
    new EventLogFileSourceProvider().configure(root.section("sources.eventlogfile"));
    assertThat(root.problems())
        .extracting(ConfigProblem::message)
        .anySatisfy(m -> assertThat(m).startsWith("salesforce.private_key: not a PEM"));
  }
}
