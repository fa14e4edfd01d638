package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/** What the Loki sink connector's sf2loki configuration needs: {@code sink.loki}, nothing more. */
class SinkConfigurationTest {

  private static List<String> configErrors(String hocon) {
    Map<String, String> props = new HashMap<>();
    props.put("connector.class", LokiSinkConnector.class.getName());
    props.put("topics", "salesforce-events");
    props.put("sf2loki.config", hocon);
    return new LokiSinkConnector()
        .validate(props).configValues().stream()
            .filter(v -> v.name().equals("sf2loki.config"))
            .map(ConfigValue::errorMessages)
            .findFirst()
            .orElseThrow();
  }

  /** The sink reads no org: it must not need the org's credentials in its configuration. */
  @Test
  void aSinkLokiSectionAloneIsAValidSinkConfiguration() {
    assertThat(configErrors("sink.loki { url = \"http://loki:3100\" }")).isEmpty();
  }

  @Test
  void theSinkUrlIsStillRequired() {
    assertThat(configErrors("sink.loki { tenant_id = acme }"))
        .anyMatch(e -> e.contains("sink.loki.url"));
  }

  @Test
  void aSalesforceSectionGivenIsStillCheckedAsConfigCheckWouldCheckIt() {
    assertThat(
            configErrors(
                "sink.loki { url = \"http://loki:3100\" }\nsalesforce.login_urll = \"x\"\n"))
        .anyMatch(e -> e.contains("login_urll"));
  }

  /** Each org's sink is its own tenant's: the sink connector would push every org with one. */
  @Test
  void aMultiOrgConfigurationIsRefusedNamingOrgs() {
    String orgs =
        """
        sink.loki { url = "http://loki:3100" }
        salesforce { auth_mode = client_credentials }
        orgs = [
          { name = prod, salesforce { login_url = "https://p.my.salesforce.com", client_id = a, client_secret = b }, sink.loki.tenant_id = prod }
          { name = emea, salesforce { login_url = "https://e.my.salesforce.com", client_id = c, client_secret = d }, sink.loki.tenant_id = emea }
        ]
        """;

    assertThat(configErrors(orgs))
        .singleElement()
        .asString()
        .startsWith("orgs is not used by the Loki sink connector");
  }
}
