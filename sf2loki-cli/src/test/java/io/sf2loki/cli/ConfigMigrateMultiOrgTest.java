package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code config migrate} of a Python multi-org file: every org becomes an element of our {@code
 * orgs} under its Python name, what Python shares across orgs stays shared, and the result binds
 * with the real loader, org by org.
 */
class ConfigMigrateMultiOrgTest {

  @TempDir Path dir;

  private Map<String, String> env;
  private String yaml;

  /** Three orgs as an operator runs them: JWT production, two client-credentials sandboxes. */
  @BeforeEach
  void pythonMultiOrgFile() throws Exception {
    Path key = dir.resolve("prod.key");
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    Files.writeString(
        key,
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n");
    Path emeaSecret = Files.writeString(dir.resolve("emea.secret"), "emea-secret-value");
    Path token = Files.writeString(dir.resolve("loki.token"), "loki-token-value");
    env =
        Map.of(
            "SF_CLIENT_ID", "3MVG9-prod",
            "APAC_CLIENT_SECRET", "apac-secret-value",
            "EMEA_SALT", "emea-salt-value");
    yaml =
        """
        orgs:
          - name: prod
            salesforce:
              environment: production
              auth_mode: jwt_bearer
              client_id: "${SF_CLIENT_ID}"
              username: svc@example.com
              private_key_file: %s
              api_version: "60.0"
              org_id: "00D000000000001EAA"
              limits:
                enabled: true
            sources:
              pubsub:
                topics: [/event/LoginEventStream]
              eventlog_objects:
                enabled: true
                objects:
                  - name: ApiEvent
                    big_object: true
          - name: emea
            salesforce:
              environment: sandbox
              auth_mode: client_credentials
              login_url: https://acme--emea.sandbox.my.salesforce.com
              client_id: 3MVG9-emea
              client_secret_file: %s
            sources:
              transform_salt: "${EMEA_SALT}"
              pubsub:
                enabled: false
              eventlogfile:
                enabled: true
                interval: Daily
                event_types: [Login, API]
                exclude: [Sites]
                transforms:
                  - action: hash
                    fields: [USER_EMAIL]
          - name: apac
            salesforce:
              auth_mode: client_credentials
              login_url: https://acme-apac.my.salesforce.com
              client_id: 3MVG9-apac
              client_secret: "${APAC_CLIENT_SECRET}"
            sources:
              pubsub: {enabled: false}
              apexlog: {enabled: true, users: [integration@acme.com]}
        sink:
          loki:
            url: https://logs.example.com/loki/api/v1/push
            tenant_id: "123456"
            auth_token_file: %s
            labels: {job: salesforce}
            structured_metadata_fields: [user_id, username]
            egress:
              daily_byte_budget: 1000000000
        state:
          store: file
          file: {path: %s}
        coordinate:
          type: file_lease
          file_lease: {path: %s, ttl: 30s, renew_interval: 10s}
        service:
          log_level: info
        """
            .formatted(
                key, emeaSecret, token, dir.resolve("state.json"), dir.resolve("leader.lease"));
  }

  private CliRun migrate(String text, String... extra) throws Exception {
    Path file = Files.writeString(dir.resolve("sf2loki.yaml"), text);
    List<String> args = new ArrayList<>(List.of("config", "migrate", file.toString()));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  private Path migrated() throws Exception {
    CliRun migrated = migrate(yaml);
    assertThat(migrated.exitCode()).as(migrated.err()).isZero();
    return Files.writeString(dir.resolve("sf2loki.conf"), migrated.out());
  }

  private Shards bind(Path hocon) {
    ClassLoader loader = getClass().getClassLoader();
    return Shards.bind(new ConfigLoader(loader, env).load(Optional.of(hocon)), loader);
  }

  @Test
  void theConvertedMultiOrgFilePassesConfigCheck() throws Exception {
    Path hocon = migrated();

    CliRun check = CliRun.withEnv(env, "--config", hocon.toString(), "config", "check");

    assertThat(check.exitCode()).as(check.err() + "\n" + Files.readString(hocon)).isZero();
    assertThat(check.out()).contains("config check OK");
  }

  @Test
  void everyOrgBecomesAShardUnderItsPythonNameInTheSameOrder() throws Exception {
    Shards shards = bind(migrated());

    assertThat(shards.multiOrg()).isTrue();
    assertThat(shards.orgNames()).containsExactly("prod", "emea", "apac");
  }

  @Test
  void eachOrgKeepsItsOwnSalesforceConnection() throws Exception {
    Shards shards = bind(migrated());

    SalesforceConfig prod = shards.select(Optional.of("prod")).config().salesforce();
    assertThat(prod.clientId()).isEqualTo("3MVG9-prod");
    assertThat(prod.authMode().name()).isEqualToIgnoringCase("jwt_bearer");
    assertThat(prod.username()).contains("svc@example.com");
    assertThat(prod.orgId()).contains("00D000000000001EAA");
    assertThat(prod.apiVersion()).isEqualTo("60.0");
    SalesforceConfig emea = shards.select(Optional.of("emea")).config().salesforce();
    assertThat(emea.environment()).isEqualTo("sandbox");
    assertThat(emea.clientId()).isEqualTo("3MVG9-emea");
    assertThat(emea.loginUrl()).hasToString("https://acme--emea.sandbox.my.salesforce.com");
    assertThat(emea.clientSecret().orElseThrow().reveal()).isEqualTo("emea-secret-value");
    assertThat(emea.orgId()).isEmpty();
    SalesforceConfig apac = shards.select(Optional.of("apac")).config().salesforce();
    assertThat(apac.clientId()).isEqualTo("3MVG9-apac");
    assertThat(apac.clientSecret().orElseThrow().reveal()).isEqualTo("apac-secret-value");
    assertThat(apac.environment()).isEqualTo("production");
  }

  @Test
  void eachOrgKeepsItsOwnSourcesWithThePythonDefaultsWrittenOut() throws Exception {
    Shards shards = bind(migrated());

    Config prod = resolved(shards, "prod");
    assertThat(prod.getBoolean("sources.pubsub.enabled")).isTrue(); // Python's default
    assertThat(prod.getStringList("sources.pubsub.topics"))
        .containsExactly("/event/LoginEventStream");
    assertThat(prod.getBoolean("sources.eventlog_objects.enabled")).isTrue();
    assertThat(prod.getBoolean("sources.eventlogfile.enabled")).isFalse();
    assertThat(prod.getBoolean("salesforce.limits.enabled")).isTrue();
    Config emea = resolved(shards, "emea");
    assertThat(emea.getBoolean("sources.pubsub.enabled")).isFalse();
    assertThat(emea.getString("sources.eventlogfile.interval")).isEqualTo("Daily");
    assertThat(emea.getStringList("sources.eventlogfile.event_types"))
        .containsExactly("Login", "API");
    assertThat(emea.getString("sources.eventlogfile.poll_interval")).isEqualTo("1h");
    assertThat(emea.getString("sources.transform_salt")).isEqualTo("emea-salt-value");
    assertThat(emea.getConfigList("sources.eventlogfile.transforms")).hasSize(1);
    assertThat(emea.getBoolean("sources.eventlog_objects.enabled")).isFalse();
    Config apac = resolved(shards, "apac");
    assertThat(apac.getBoolean("sources.apexlog.enabled")).isTrue();
    assertThat(apac.getStringList("sources.apexlog.users")).containsExactly("integration@acme.com");
    assertThat(apac.getBoolean("sources.eventlogfile.enabled")).isFalse();
  }

  @Test
  void whatPythonSharesAcrossOrgsEveryOrgInherits() throws Exception {
    Shards shards = bind(migrated());

    for (String org : List.of("prod", "emea", "apac")) {
      Config config = resolved(shards, org);
      assertThat(config.getString("sink.loki.tenant_id")).as(org).isEqualTo("123456");
      assertThat(config.getString("sink.loki.labels.job")).as(org).isEqualTo("salesforce");
      assertThat(config.getString("sink.loki.labels.org")).as(org).isEqualTo(org);
      assertThat(config.getStringList("sources.eventlogfile.structured_metadata_fields"))
          .as(org)
          .containsExactly("user_id", "username");
      assertThat(config.getStringList("sources.pubsub.structured_metadata_fields"))
          .as(org)
          .containsExactly("user_id", "username");
      assertThat(config.getLong("sink.loki.egress.daily_byte_budget"))
          .as(org)
          .isEqualTo(1_000_000_000L);
      assertThat(config.getString("service.log_level")).as(org).isEqualTo("INFO");
      assertThat(config.getString("state.file.path"))
          .as(org)
          .isEqualTo(dir.resolve("state-" + org + ".json").toString());
    }
  }

  @Test
  void secretsStayReferencesAndNoSecretValueIsWrittenOut() throws Exception {
    String hocon = Files.readString(migrated());

    assertThat(hocon)
        .contains("client_id = ${SF_CLIENT_ID}")
        .contains("client_secret = ${APAC_CLIENT_SECRET}")
        .contains("transform_salt = ${EMEA_SALT}")
        .contains("client_secret_file = \"" + dir.resolve("emea.secret") + "\"")
        .contains("private_key_file = \"" + dir.resolve("prod.key") + "\"")
        .contains("auth_token_file = \"" + dir.resolve("loki.token") + "\"")
        .doesNotContain("secret-value")
        .doesNotContain("salt-value")
        .doesNotContain("loki-token-value")
        .doesNotContain("PRIVATE KEY");
  }

  @Test
  void theReportNamesEveryPythonKeyOfEveryOrg() throws Exception {
    CliRun migrated = migrate(yaml);

    MigrationReport.assertEveryKeyReported(yaml, migrated.err());
    assertThat(migrated.err())
        .contains("config migrate: orgs[prod].name -> orgs[0].name\n")
        .contains(
            "config migrate: orgs[emea].salesforce.client_id -> orgs[1].salesforce.client_id\n")
        .contains(
            "config migrate: orgs[apac].sources.apexlog.users -> orgs[2].sources.apexlog.users\n")
        .contains("config migrate: no equivalent: orgs[emea].sources.eventlogfile.exclude: ")
        .contains(
            "config migrate: default written: orgs[emea].sources.eventlogfile.poll_interval: ")
        .contains("config migrate: sink.loki.tenant_id -> sink.loki.tenant_id\n")
        .contains(
            "config migrate: sink.loki.structured_metadata_fields ->"
                + " sources.pubsub.structured_metadata_fields,");
  }

  @Test
  void thePerOrgDocumentsLeasesAndEgressBudgetsAreReported() throws Exception {
    CliRun migrated = migrate(yaml);

    assertThat(migrated.err())
        .contains(
            "config migrate: different semantics: state: one document shared by the orgs in Python"
                + " (keys org=<name>:...); here each org keeps its own ("
                + dir.resolve("state-prod.json")
                + ", "
                + dir.resolve("state-emea.json")
                + ", "
                + dir.resolve("state-apac.json")
                + ")")
        .contains(
            "config migrate: different semantics: coordinate: one lease for all orgs in Python;"
                + " here each org has its own ("
                + dir.resolve("leader-prod.lease")
                + ", ")
        .contains(
            "config migrate: different semantics: sink.loki.egress: one budget and one set of caps"
                + " for all orgs in Python; here each of the 3 orgs has its own");
    assertThat(migrated.out()).contains("#   different semantics: state: one document");
  }

  @Test
  void aSharedSfOrgIdLabelIsWrittenIntoEveryOrgAndASharedOrgLabelIsDropped() throws Exception {
    CliRun migrated =
        migrate(
            """
            orgs:
              - {name: prod, salesforce: {client_id: a, username: u@example.com, private_key: k}}
              - {name: uat, salesforce: {client_id: b, username: u@example.com, private_key: k}}
            sink: {loki: {url: "http://127.0.0.1:3100",
                          labels: {sf_org_id: "00Dshared", org: everyone, job: sf}}}
            """);

    assertThat(migrated.exitCode()).as(migrated.err()).isZero();
    Config hocon = com.typesafe.config.ConfigFactory.parseString(migrated.out());
    assertThat(hocon.hasPath("sink.loki.labels.sf_org_id")).isFalse();
    assertThat(hocon.hasPath("sink.loki.labels.org")).isFalse();
    assertThat(hocon.getString("sink.loki.labels.job")).isEqualTo("sf");
    assertThat(hocon.getConfigList("orgs"))
        .allSatisfy(
            org -> assertThat(org.getString("sink.loki.labels.sf_org_id")).isEqualTo("00Dshared"));
    assertThat(migrated.err())
        .contains(
            "config migrate: sink.loki.labels.sf_org_id -> orgs[0].sink.loki.labels.sf_org_id,"
                + " orgs[1].sink.loki.labels.sf_org_id\n")
        .contains("config migrate: no equivalent: sink.loki.labels.org: ");
  }

  @Test
  void aFileWithOneOrgKeepsItsOrgWithoutOrgOption() throws Exception {
    CliRun migrated =
        migrate(
            """
            orgs:
              - {name: prod, salesforce: {client_id: a, username: u@example.com, private_key: k}}
            sink: {loki: {url: "http://127.0.0.1:3100"}}
            """);

    assertThat(migrated.exitCode()).as(migrated.err()).isZero();
    Config hocon = com.typesafe.config.ConfigFactory.parseString(migrated.out());
    assertThat(hocon.getConfigList("orgs")).hasSize(1);
    assertThat(hocon.getConfigList("orgs").get(0).getString("name")).isEqualTo("prod");
    assertThat(hocon.hasPath("salesforce")).isFalse();
  }

  @Test
  void anOrgOptionNamingNoOrgIsAUsageErrorListingTheOrgs() throws Exception {
    CliRun migrated = migrate(yaml, "--org", "amer");

    assertThat(migrated.exitCode()).isEqualTo(2);
    assertThat(migrated.out()).isEmpty();
    assertThat(migrated.err())
        .isEqualTo(
            "sf2loki: --org amer: "
                + dir.resolve("sf2loki.yaml")
                + " has no org of that name (there are: prod, emea, apac; without --org all of"
                + " them are converted)\n");
  }

  @Test
  void anOrgOptionOnASingleOrgFileIsAUsageError() throws Exception {
    CliRun migrated =
        migrate(
            """
            salesforce: {client_id: a, username: u@example.com, private_key: k}
            sink: {loki: {url: "http://127.0.0.1:3100"}}
            """,
            "--org",
            "prod");

    assertThat(migrated.exitCode()).isEqualTo(2);
    assertThat(migrated.out()).isEmpty();
    assertThat(migrated.err()).contains("--org prod: ").contains("is a single-org file");
  }

  @Test
  void everyProblemOfEveryOrgIsReportedAtOnceByItsKey() throws Exception {
    CliRun migrated =
        migrate(
            """
            orgs:
              - {name: prod, salesforce: {client_id: a, colour: blue}}
              - {name: prod, salesforce: {client_id: b}}
              - {name: "bad name", salesforce: {client_id: c}}
              - {salesforce: {client_id: d}}
              - {name: PROD, salesforce: {client_id: e}}
              - {name: nosf}
              - just-a-string
            sink: {loki: {url: "http://127.0.0.1:3100"}}
            """);

    assertThat(migrated.exitCode()).isEqualTo(2);
    assertThat(migrated.out()).isEmpty();
    assertThat(migrated.err())
        .contains("orgs[prod].salesforce.colour: unknown key")
        .contains("orgs[1].name: \"prod\" names an earlier org too: org names must be unique")
        .contains("orgs[2].name: must be letters, digits, _ and - only")
        .contains("orgs[3].name: required")
        .contains("orgs[4].name: \"PROD\" differs from the earlier org \"prod\" only in case")
        .contains("orgs[nosf].salesforce: required")
        .contains("orgs[6]: must be a mapping, not the string \"just-a-string\"");
  }

  private static Config resolved(Shards shards, String org) {
    Shard shard = shards.select(Optional.of(org));
    return shard.config().loaded().resolved();
  }
}
