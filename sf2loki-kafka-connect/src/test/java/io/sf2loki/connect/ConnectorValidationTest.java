package io.sf2loki.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.orgs.Shards;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/** The connector refuses a configuration with exactly the messages {@code config check} prints. */
class ConnectorValidationTest {

  private static final String VALID =
      """
      salesforce { auth_mode = client_credentials, login_url = "https://acme.my.salesforce.com"
                   client_id = cid, client_secret = secret }
      sources.eventlogfile { enabled = true, event_types = [Login] }
      """;

  private static Map<String, String> props(String hocon) {
    Map<String, String> props = new HashMap<>();
    props.put("connector.class", Sf2LokiSourceConnector.class.getName());
    props.put("topic", "salesforce");
    props.put("sf2loki.config", hocon);
    return props;
  }

  private static List<String> errorsOf(Config config, String key) {
    return config.configValues().stream()
        .filter(v -> v.name().equals(key))
        .map(ConfigValue::errorMessages)
        .findFirst()
        .orElseThrow();
  }

  /** What config check lists for {@code hocon}: the loader's and the binding's problems. */
  private static List<String> configCheckProblems(String hocon) {
    try {
      var loaded = new ConfigLoader(getClass0(), Map.of()).loadString(hocon);
      Shards.bind(loaded, getClass0());
      return List.of();
    } catch (ConfigInvalidException e) {
      return e.problems().stream().map(ConfigProblem::toString).toList();
    }
  }

  private static ClassLoader getClass0() {
    return ConnectorValidationTest.class.getClassLoader();
  }

  @Test
  void aValidConfigurationHasNoErrors() {
    Config config = new Sf2LokiSourceConnector().validate(props(VALID));

    assertThat(config.configValues()).allMatch(v -> v.errorMessages().isEmpty());
  }

  @Test
  void theSinkUrlIsNotNeededBecauseConnectDelivers() {
    assertThat(configCheckProblems(VALID)).anyMatch(p -> p.contains("sink.loki.url"));
    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props(VALID)), "sf2loki.config"))
        .isEmpty();
  }

  @Test
  void aBadKeyIsReportedOnSf2lokiConfigWithConfigChecksOwnMessage() {
    String bad = VALID + "sources.eventlogfile.poll_intervall = 5m\n";

    List<String> errors =
        errorsOf(new Sf2LokiSourceConnector().validate(props(bad)), "sf2loki.config");

    List<String> expected =
        configCheckProblems(bad + "sink.loki.url = \"http://x.invalid\"\n").stream().toList();
    assertThat(expected).isNotEmpty();
    assertThat(errors).containsExactlyElementsOf(expected);
    assertThat(errors).anyMatch(e -> e.contains("poll_interval"));
  }

  @Test
  void theRecordFormatIsStructOrJson() {
    Map<String, String> props = props(VALID);
    props.put("sf2loki.record.format", "avro");

    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props), "sf2loki.record.format"))
        .singleElement()
        .asString()
        .contains("struct", "json");
    props.put("sf2loki.record.format", "json");
    props.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props), "sf2loki.record.format"))
        .isEmpty();
  }

  @Test
  void theJsonRecordFormatIsRefusedUnlessTheConnectorWritesItsValuesWithByteArrayConverter() {
    Map<String, String> props = props(VALID);
    props.put("sf2loki.record.format", "json");

    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props), "sf2loki.record.format"))
        .singleElement()
        .asString()
        .contains("value.converter=org.apache.kafka.connect.converters.ByteArrayConverter")
        .contains("unset");
    props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props), "sf2loki.record.format"))
        .singleElement()
        .asString()
        .contains("it is org.apache.kafka.connect.json.JsonConverter");
    assertThatThrownBy(() -> new Sf2LokiSourceConnector().start(props))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("sf2loki.record.format=json");
  }

  @Test
  void aMissingTopicIsConnectsOwnError() {
    Map<String, String> props = props(VALID);
    props.remove("topic");

    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props), "topic")).isNotEmpty();
  }

  @Test
  void neitherInlineConfigNorFileIsRefusedByName() {
    Map<String, String> props = props("");

    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props), "sf2loki.config"))
        .containsExactly(
            "set exactly one of sf2loki.config and sf2loki.config.file (the sf2loki config)");
  }

  @Test
  void eachOrgOfAMultiOrgConfigurationIsWholeInOneTask() {
    String orgs =
        """
        salesforce { auth_mode = client_credentials }
        sources.eventlogfile { enabled = true, event_types = [Login] }
        orgs = [
          { name = prod, salesforce { login_url = "https://p.my.salesforce.com", client_id = a, client_secret = b } }
          { name = emea, salesforce { login_url = "https://e.my.salesforce.com", client_id = c, client_secret = d } }
          { name = apac, salesforce { login_url = "https://a.my.salesforce.com", client_id = e, client_secret = f } }
        ]
        """;
    Sf2LokiSourceConnector connector = new Sf2LokiSourceConnector();
    connector.start(props(orgs));

    assertThat(connector.taskConfigs(2))
        .extracting(c -> c.get(ConnectorSettings.TASK_ORGS))
        .containsExactly("prod,apac", "emea");
    assertThat(Optional.ofNullable(connector.taskConfigs(2).get(0).get("topic")))
        .contains("salesforce");
  }

  @Test
  void exactlyOnceOnlyWhenTheConnectorEndsTheTransactionsAtPositions() {
    Sf2LokiSourceConnector connector = new Sf2LokiSourceConnector();

    assertThat(connector.exactlyOnceSupport(Map.of("transaction.boundary", "connector")))
        .isEqualTo(org.apache.kafka.connect.source.ExactlyOnceSupport.SUPPORTED);
    assertThat(connector.exactlyOnceSupport(Map.of("transaction.boundary", "poll")))
        .isEqualTo(org.apache.kafka.connect.source.ExactlyOnceSupport.UNSUPPORTED);
    assertThat(connector.exactlyOnceSupport(Map.of()))
        .isEqualTo(org.apache.kafka.connect.source.ExactlyOnceSupport.UNSUPPORTED);
  }

  private static final String PUBSUB =
      VALID
          + "sources.pubsub { enabled = true, plaintext = true, endpoint = \"localhost:7443\","
          + " topics = [\"/data/AccountChangeEvent\"] }\n";

  @Test
  void aConfigurationWithPubSubIsNotExactlyOnceWhateverTheBoundary() {
    Map<String, String> props = props(PUBSUB);
    props.put("transaction.boundary", "connector");

    assertThat(new Sf2LokiSourceConnector().exactlyOnceSupport(props))
        .isEqualTo(org.apache.kafka.connect.source.ExactlyOnceSupport.UNSUPPORTED);
    assertThat(new Sf2LokiSourceConnector().exactlyOnceSupport(props(VALID)))
        .isEqualTo(org.apache.kafka.connect.source.ExactlyOnceSupport.UNSUPPORTED);
    Map<String, String> polling = props(VALID);
    polling.put("transaction.boundary", "connector");
    assertThat(new Sf2LokiSourceConnector().exactlyOnceSupport(polling))
        .isEqualTo(org.apache.kafka.connect.source.ExactlyOnceSupport.SUPPORTED);
  }

  @Test
  void requiringExactlyOnceWithPubSubIsRefusedOnSf2lokiConfigNamingTheSource() {
    Map<String, String> props = props(PUBSUB);
    props.put("transaction.boundary", "connector");
    props.put("exactly.once.support", "required");

    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props), "sf2loki.config"))
        .singleElement()
        .asString()
        .startsWith(
            "exactly.once.support=required cannot hold with sources.pubsub enabled (org"
                + " default)");
    props.put("exactly.once.support", "requested");
    assertThat(errorsOf(new Sf2LokiSourceConnector().validate(props), "sf2loki.config")).isEmpty();
  }
}
