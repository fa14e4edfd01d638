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
