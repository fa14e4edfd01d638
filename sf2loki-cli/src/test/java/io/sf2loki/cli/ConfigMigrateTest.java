package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigMigrateTest {

  @TempDir Path dir;

  /** The Python presets' salesforce and sink blocks with a custom-platform-events source. */
  private String pythonConfig() throws Exception {
    Path key = Files.writeString(dir.resolve("server.key"), "not a key, only read at start");
    Path token = Files.writeString(dir.resolve("loki.token"), "t0ken");
    return """
        salesforce:
          environment: production
          auth_mode: jwt_bearer
          client_id: "3MVG9-test"
          username: svc@example.com
          private_key_file: %s
          api_version: "60.0"
          limits:
            enabled: true
            poll_interval: 10m
        sources:
          pubsub:
            enabled: yes
            replay_preset: LATEST
            topics: [/event/Order_Shipped__e, /data/AccountChangeEvent]
            include: ["*"]
            exclude: []
            sample: {/data/AccountChangeEvent: 0.25}
            bridge_max_bytes: 1048576
          eventlog_objects:
            enabled: true
            objects:
              - name: LoginEvent
                poll_interval: 5m
                lookback: 1h
                max_catchup_records: 5000
        sink:
          loki:
            url: https://logs-prod-012.grafana.net/loki/api/v1/push
            tenant_id: "123456"
            auth_token_file: %s
            structured_metadata_fields: [user_id, username]
            batch:
              flush_interval: 1.5s
              max_line_bytes: 131072
            egress:
              daily_byte_budget: 1000000000
              max_lines_per_second: 250.5
        state:
          store: file
          file:
            path: %s
        coordinate:
          type: file_lease
          file_lease:
            path: %s
            ttl: 30
            renew_interval: 10s
            holder_id: "sf2loki-${REPLICA_ID}"
        service:
          log_level: warning
          health_addr: ":8080"
          telemetry:
            enabled: true
        """
        .formatted(key, token, dir.resolve("state.json"), dir.resolve("leader.lease"));
  }

  private CliRun migrate(String yaml, String... extra) throws Exception {
    Path file = dir.resolve("sf2loki.yaml");
    Files.writeString(file, yaml);
    String[] args = new String[2 + extra.length + 1];
    args[0] = "config";
    args[1] = "migrate";
    args[2] = file.toString();
    System.arraycopy(extra, 0, args, 3, extra.length);
    return CliRun.of(args);
  }

  @Test
  void convertedFilePassesConfigCheck() throws Exception {
    CliRun migrated = migrate(pythonConfig());
    assertThat(migrated.exitCode()).as(migrated.err()).isZero();
    Path hocon = Files.writeString(dir.resolve("sf2loki.conf"), migrated.out());
    CliRun check =
        CliRun.withEnv(Map.of("REPLICA_ID", "a"), "config", "check", "--config", hocon.toString());
    assertThat(check.exitCode()).as(check.err() + "\n" + migrated.out()).isZero();
    assertThat(check.out()).contains("config check OK");
  }

  @Test
  void orgLimitPollingKeysBecomeTheSalesforceLimitsSection() throws Exception {
    CliRun migrated = migrate(pythonConfig());
    assertThat(migrated.err())
        .contains("config migrate: salesforce.limits.enabled -> salesforce.limits.enabled\n")
        .doesNotContain("no equivalent: salesforce.limits")
        .doesNotContain("different semantics: salesforce.limits");
    Config hocon = ConfigFactory.parseString(migrated.out());
    assertThat(hocon.getBoolean("salesforce.limits.enabled")).isTrue();
    assertThat(hocon.getString("salesforce.limits.poll_interval")).isEqualTo("10m");
  }

  @Test
  void theEgressBudgetKeepsThePythonPauseOfBothLanesAndItsSharedCapBecomesEachLanes()
      throws Exception {
    CliRun migrated = migrate(pythonConfig());
    Config hocon = ConfigFactory.parseString(migrated.out());

    assertThat(hocon.getLong("sink.loki.egress.daily_byte_budget")).isEqualTo(1_000_000_000L);
    assertThat(hocon.getList("sink.loki.egress.budget_exempt_lanes")).isEmpty();
    assertThat(hocon.getLong("sink.loki.egress.bulk.max_lines_per_second")).isEqualTo(250);
    assertThat(hocon.getLong("sink.loki.egress.streaming.max_lines_per_second")).isEqualTo(250);
    assertThat(migrated.err())
        .contains("sink.loki.egress.max_lines_per_second: one cap per lane here")
        .doesNotContain("no equivalent: sink.loki.egress");
  }

  @Test
  void theReportNamesEveryPythonKey() throws Exception {
    String yaml = pythonConfig();
    CliRun migrated = migrate(yaml);

    MigrationReport.assertEveryKeyReported(yaml, migrated.err());
    assertThat(migrated.err())
        .contains("config migrate: salesforce.client_id -> salesforce.client_id\n")
        .contains("config migrate: service.health_addr -> service.http_host, service.http_port\n")
        .contains(
            "config migrate: sink.loki.egress.max_lines_per_second ->"
                + " sink.loki.egress.streaming.max_lines_per_second,"
                + " sink.loki.egress.bulk.max_lines_per_second\n");
  }

  @Test
  void keysWithNoEquivalentAreReportedOnStandardError() throws Exception {
    CliRun migrated = migrate(pythonConfig());
    assertThat(migrated.err())
        .contains("config migrate: no equivalent: sources.pubsub.bridge_max_bytes: ")
        .contains("config migrate: no equivalent: service.telemetry: ");
    String hocon = migrated.out().replaceAll("(?m)^#.*\n", "");
    assertThat(hocon).doesNotContain("telemetry");
    assertThat(migrated.out()).contains("#   no equivalent: service.telemetry: ");
  }

  @Test
  void valuesAreRewrittenInOurForms() throws Exception {
    String out = migrate(pythonConfig()).out();
    assertThat(out)
        .contains("enabled = true") // YAML 1.1 "yes"
        .contains("flush_interval = \"1500ms\"")
        .contains("ttl = \"30s\"")
        .contains("holder_id = \"sf2loki-\"${REPLICA_ID}")
        .contains("log_level = \"WARN\"")
        .contains("http_host = \"0.0.0.0\"")
        .contains("http_port = 8080")
        .contains("max_line_bytes = 131072")
        .contains("\"/data/AccountChangeEvent\" = 0.25")
        .contains("\"include\" = [\"*\"]");
  }

  @Test
  void pythonDefaultsThatDifferAreWrittenOut() throws Exception {
    CliRun migrated = migrate(pythonConfig());
    assertThat(migrated.out())
        .contains("log_format = \"json\"")
        .contains("timestamp_field = \"EventDate\"")
        .contains("big_object = false")
        .contains("settle_window = \"0s\"");
    assertThat(migrated.err())
        .contains("config migrate: default written: service.log_format: ")
        .contains("config migrate: different semantics: sink.loki.structured_metadata_fields: ");
  }

  @Test
  void pubsubIsEnabledWhenPythonLeftItAtItsDefault() throws Exception {
    String yaml =
        """
        salesforce: {auth_mode: client_credentials, client_id: x, client_secret: y,
                     login_url: "https://acme.my.salesforce.com"}
        sink: {loki: {url: "http://127.0.0.1:3100"}}
        """;
    CliRun migrated = migrate(yaml);
    assertThat(migrated.exitCode()).as(migrated.err()).isZero();
    assertThat(migrated.out()).containsPattern("pubsub \\{\\s+enabled = true");
    assertThat(migrated.err()).contains("default written: sources.pubsub.enabled");
  }

  @Test
  void everyProblemIsReportedAtOnceByDottedKey() throws Exception {
    String yaml =
        """
        salesforce: {client_id: x, api_version: 60.0, colour: blue}
        sources: {eventlogfile: {enabled: true, poll_interval: "30"}}
        sink: {loki: {url: "http://127.0.0.1:3100", batch: {max_entries: lots}}}
        """;
    CliRun migrated = migrate(yaml);
    assertThat(migrated.exitCode()).isEqualTo(2);
    assertThat(migrated.out()).isEmpty();
    assertThat(migrated.err())
        .contains("salesforce.api_version: must be a string, not the double 60.0 (quote it")
        .contains("salesforce.colour: unknown key")
        .contains(
            "sources.eventlogfile.event_types: must not be empty when eventlogfile is enabled")
        .contains("sources.eventlogfile.poll_interval: must be a duration")
        .contains("sink.loki.batch.max_entries: must be an integer, not the string \"lots\"");
  }

  @Test
  void textThatIsNotAYamlMappingIsAUsageError() throws Exception {
    assertThat(migrate("- a\n- b\n").err()).contains("the top level must be a mapping");
    CliRun broken = migrate("salesforce: [unclosed\n");
    assertThat(broken.exitCode()).isEqualTo(2);
    assertThat(broken.err()).contains("not YAML: ");
  }

  @Test
  void aMissingFileFailsWithItsName() {
    Path absent = dir.resolve("absent.yaml");
    CliRun run = CliRun.of("config", "migrate", absent.toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("cannot read " + absent);
  }

  private static final String TWO_ORGS =
      """
      orgs:
        - name: prod
          salesforce: {client_id: a, username: svc@example.com, private_key: k}
        - name: emea
          salesforce: {environment: sandbox, auth_mode: client_credentials, client_id: b,
                       client_secret: s, login_url: "https://emea.my.salesforce.com"}
          sources: {eventlogfile: {enabled: true, interval: Daily, event_types: [Login, API]}}
      sink: {loki: {url: "http://127.0.0.1:3100"}}
      """;

  @Test
  void oneOrgOfSeveralIsConvertedAndItsLostPrefixReported() throws Exception {
    CliRun migrated = migrate(TWO_ORGS, "--org", "emea");
    assertThat(migrated.exitCode()).as(migrated.err()).isZero();
    assertThat(migrated.out())
        .contains("client_id = \"b\"")
        .contains("event_types = [\"Login\", \"API\"]")
        .doesNotContain("client_id = \"a\"");
    assertThat(migrated.err())
        .contains("different semantics: orgs: org 'emea'")
        .contains("org=emea:");
  }
}
