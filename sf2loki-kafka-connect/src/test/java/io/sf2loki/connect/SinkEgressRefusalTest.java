package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * The Loki sink connector pushes without the daemon's lanes, which apply {@code sink.loki.egress}:
 * a budget or a rate cap would be ignored (and a paused or dropped batch could not be kept out of
 * {@code preCommit}), so the connector refuses them instead of running unbounded.
 */
class SinkEgressRefusalTest {

  private static final String LOKI =
      """
      salesforce { auth_mode = client_credentials, login_url = "https://acme.my.salesforce.com"
                   client_id = cid, client_secret = secret }
      sink.loki { url = "http://loki.invalid:3100" }
      """;

  private static Map<String, String> props(String hocon) {
    Map<String, String> props = new HashMap<>();
    props.put("connector.class", LokiSinkConnector.class.getName());
    props.put("topics", "salesforce");
    props.put("sf2loki.config", hocon);
    return props;
  }

  private static List<String> configErrors(Config config) {
    return config.configValues().stream()
        .filter(v -> v.name().equals("sf2loki.config"))
        .map(ConfigValue::errorMessages)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aDailyByteBudgetIsRefusedOnSf2lokiConfigNamingTheKey() {
    String hocon = LOKI + "sink.loki.egress { daily_byte_budget = 1GiB, budget_action = drop }\n";

    assertThat(configErrors(new LokiSinkConnector().validate(props(hocon))))
        .singleElement()
        .asString()
        .startsWith(
            "sink.loki.egress (daily_byte_budget) is not applied by the Loki sink connector");
  }

  @Test
  void aLaneRateCapIsRefusedToo() {
    String hocon = LOKI + "sink.loki.egress.bulk.max_bytes_per_second = 1MiB\n";

    assertThat(configErrors(new LokiSinkConnector().validate(props(hocon))))
        .singleElement()
        .asString()
        .startsWith("sink.loki.egress (bulk rate caps) is not applied");
  }

  @Test
  void aTaskGivenABudgetDoesNotStart() {
    Map<String, String> props = props(LOKI + "sink.loki.egress.daily_byte_budget = 10MiB\n");

    assertThatThrownBy(() -> new LokiSinkTask().start(props))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("sink.loki.egress (daily_byte_budget) is not applied");
  }

  @Test
  void theDefaultsWithoutBudgetOrCapsAreAccepted() {
    assertThat(configErrors(new LokiSinkConnector().validate(props(LOKI)))).isEmpty();
  }
}
