package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.config.EgressConfig;
import io.sf2loki.config.EgressConfig.BudgetAction;
import io.sf2loki.config.EgressConfig.RateCaps;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Source.Lane;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * How the Loki sink connector takes {@code sink.loki.egress}: a daily budget needs the Admin
 * client's bootstrap (the day's use lives in the group's committed offsets), the rate caps are
 * shared evenly by the tasks, and an entry's lane is its source's.
 */
class SinkEgressSettingsTest {

  private static final String LOKI =
      """
      salesforce { auth_mode = client_credentials, login_url = "https://acme.my.salesforce.com"
                   client_id = cid, client_secret = secret }
      sink.loki { url = "http://loki.invalid:3100" }
      """;

  private static Map<String, String> props(String hocon) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "deliver");
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
  void aDailyBudgetWithoutTheAdminBootstrapIsRefusedNamingTheKey() {
    String hocon = LOKI + "sink.loki.egress { daily_byte_budget = 1GiB, budget_action = drop }\n";

    assertThat(configErrors(new LokiSinkConnector().validate(props(hocon))))
        .singleElement()
        .asString()
        .startsWith("sink.loki.egress.daily_byte_budget is the sink connector's across its tasks")
        .contains("set sf2loki.egress.admin.bootstrap.servers on the connector");
  }

  @Test
  void aTaskGivenABudgetWithoutTheAdminBootstrapDoesNotStart() {
    Map<String, String> props = props(LOKI + "sink.loki.egress.daily_byte_budget = 10MiB\n");

    assertThatThrownBy(() -> new LokiSinkTask().start(props))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("set sf2loki.egress.admin.bootstrap.servers");
  }

  @Test
  void aDailyBudgetWithTheAdminBootstrapIsAccepted() {
    Map<String, String> props = props(LOKI + "sink.loki.egress.daily_byte_budget = 1GiB\n");
    props.put("sf2loki.egress.admin.bootstrap.servers", "kafka:9092");

    assertThat(configErrors(new LokiSinkConnector().validate(props))).isEmpty();
  }

  @Test
  void rateCapsAloneNeedNoAdminClient() {
    String hocon = LOKI + "sink.loki.egress.bulk.max_bytes_per_second = 1MiB\n";

    assertThat(configErrors(new LokiSinkConnector().validate(props(hocon)))).isEmpty();
  }

  @Test
  void taskConfigsTellEachTaskHowManyShareTheCapsAndWhichGroupKeepsTheUse() {
    LokiSinkConnector connector = new LokiSinkConnector();
    connector.start(props(LOKI));

    List<Map<String, String>> tasks = connector.taskConfigs(3);

    assertThat(tasks)
        .hasSize(3)
        .allSatisfy(
            t -> {
              assertThat(t).containsEntry("sf2loki.task.count", "3");
              assertThat(t).containsEntry("sf2loki.task.group", "connect-deliver");
            });
  }

  @Test
  void theGroupIsTheConsumerOverrideWhenTheConnectorSetsOne() {
    Map<String, String> props = props(LOKI);
    props.put("consumer.override.group.id", "loki-egress");

    assertThat(ConnectorSettings.ofSink(props).sinkGroup()).isEqualTo("loki-egress");
  }

  @Test
  void eachTaskGetsAnEvenShareOfEachCapAtLeastOne() {
    EgressConfig config =
        new EgressConfig(
            1000,
            BudgetAction.PAUSE,
            Set.of(Lane.STREAMING),
            Map.of(Lane.BULK, new RateCaps(3_000_000, 2), Lane.STREAMING, new RateCaps(0, 10)));

    EgressConfig perTask = SinkEgress.perTask(config, 3);

    assertThat(perTask.caps(Lane.BULK)).isEqualTo(new RateCaps(1_000_000, 1));
    assertThat(perTask.caps(Lane.STREAMING)).isEqualTo(new RateCaps(0, 3));
    assertThat(perTask.dailyByteBudget()).isEqualTo(1000);
    assertThat(perTask.exemptLanes()).containsExactly(Lane.STREAMING);
  }

  @Test
  void pubSubEntriesTravelTheStreamingLaneAndEveryOtherEntryTheBulkLane() {
    assertThat(SinkEgress.lane(entry(Map.of("source", "pubsub")))).isEqualTo(Lane.STREAMING);
    assertThat(SinkEgress.lane(entry(Map.of("source", "eventlogfile")))).isEqualTo(Lane.BULK);
    assertThat(SinkEgress.lane(entry(Map.of("job", "sf2loki")))).isEqualTo(Lane.BULK);
  }

  private static LogEntry entry(Map<String, String> labels) {
    return LogEntry.of(1, labels, "line", Map.of(), Optional.empty());
  }
}
