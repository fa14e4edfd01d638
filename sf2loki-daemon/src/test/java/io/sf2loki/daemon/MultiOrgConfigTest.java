package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.engine.ConfiguredEngine;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code orgs = [...]}: one shard per org, each derived key by key from the top level. */
class MultiOrgConfigTest {

  private static final String TOP =
      """
      salesforce {
        auth_mode = client_credentials
        login_url = "https://prod.my.salesforce.com"
        client_id = shared-app
        client_secret = shared-secret
      }
      sources.eventlogfile { enabled = true, event_types = [Login, API], poll_interval = 10m }
      sink.loki { url = "http://loki:3100", tenant_id = shared, labels { environment = prod } }
      state.file.path = "/var/lib/sf2loki/state.json"
      coordinate { type = file_lease, file_lease.path = "/var/lib/sf2loki/leader.lease" }
      """;

  @TempDir Path dir;

  private String twoOrgs() {
    return TOP
        + """
          orgs = [
            { name = prod, salesforce {} }
            { name = emea
              salesforce { login_url = "https://emea.my.salesforce.com", client_id = emea-app }
              sources.eventlogfile.event_types = [Login]
              sink.loki { tenant_id = emea, labels { service_name = crm-emea } } }
          ]
          sink.loki.dead_letter_file = "%s"
          """
            .formatted(dir.resolve("dead-letters.jsonl"));
  }

  private static LoadedConfig load(String hocon) {
    return new ConfigLoader(MultiOrgConfigTest.class.getClassLoader(), Map.of()).loadString(hocon);
  }

  private static Shards bind(String hocon) {
    return Shards.bind(load(hocon), MultiOrgConfigTest.class.getClassLoader());
  }

  private static List<String> problems(String hocon) {
    ConfigInvalidException e = assertThrows(ConfigInvalidException.class, () -> bind(hocon));
    return e.problems().stream().map(ConfigProblem::message).toList();
  }

  private static Sf2LokiConfig org(Shards shards, String name) {
    return shards.select(Optional.of(name)).config();
  }

  @Test
  void eachOrgIsAShardWithItsOwnDocumentLeaseAndDeadLetterFile() {
    Shards shards = bind(twoOrgs());

    assertThat(shards.multiOrg()).isTrue();
    assertThat(shards.orgNames()).containsExactly("prod", "emea");
    assertThat(shards.all().get(0).org().orElseThrow().first()).isTrue();
    assertThat(shards.all().get(1).org().orElseThrow().first()).isFalse();
    assertThat(org(shards, "prod").store().location())
        .isEqualTo("/var/lib/sf2loki/state-prod.json");
    assertThat(org(shards, "emea").store().location())
        .isEqualTo("/var/lib/sf2loki/state-emea.json");
    assertThat(org(shards, "emea").coordinator().leaseFile())
        .contains(Path.of("/var/lib/sf2loki/leader-emea.lease"));
    assertThat(org(shards, "emea").loaded().resolved().getString("sink.loki.dead_letter_file"))
        .isEqualTo(dir.resolve("dead-letters-emea.jsonl").toString());
    assertThat(shards.first().org().orElseThrow().legacyDocument().location())
        .isEqualTo("/var/lib/sf2loki/state.json");
  }

  @Test
  void anOrgsSalesforceAndSourcesFallBackToTheTopLevelKeyByKey() {
    Shards shards = bind(twoOrgs());

    Sf2LokiConfig prod = org(shards, "prod");
    Sf2LokiConfig emea = org(shards, "emea");
    assertThat(prod.salesforce().clientId()).isEqualTo("shared-app");
    assertThat(emea.salesforce().clientId()).isEqualTo("emea-app");
    assertThat(emea.salesforce().loginUrl()).hasToString("https://emea.my.salesforce.com");
    assertThat(emea.salesforce().clientSecret()).isPresent(); // inherited
    assertThat(emea.loaded().resolved().getStringList("sources.eventlogfile.event_types"))
        .containsExactly("Login");
    assertThat(emea.loaded().resolved().getString("sources.eventlogfile.poll_interval"))
        .isEqualTo("10m");
    assertThat(prod.sources()).containsOnlyKeys("eventlogfile");
  }

  @Test
  void anOrgsEntriesCarryItsNameAsTheOrgLabelAndItsOwnTenantAndLabels() {
    Shards shards = bind(twoOrgs());

    assertThat(ConfiguredEngine.deploymentLabels(org(shards, "prod")))
        .containsEntry("org", "prod")
        .containsEntry("environment", "prod") // the top-level labels are every org's
        .containsEntry("service_name", "sf2loki");
    assertThat(ConfiguredEngine.deploymentLabels(org(shards, "emea")))
        .containsEntry("org", "emea")
        .containsEntry("service_name", "crm-emea");
    assertThat(org(shards, "prod").loaded().resolved().getString("sink.loki.tenant_id"))
        .isEqualTo("shared");
    assertThat(org(shards, "emea").loaded().resolved().getString("sink.loki.tenant_id"))
        .isEqualTo("emea");
  }

  @Test
  void anEventTypePromotingTooManyLabelsForLoki3IsRefusedWithTheOrgsPath() {
    // 6 always + org + late + 8 promoted = 16 > 15; the other event type promotes 7: fine alone
    String eight = "[F1, F2, F3, F4, F5, F6, F7, F8]";
    List<String> problems =
        problems(
            TOP
                + """
                orgs = [
                  { name = prod, salesforce {} }
                  { name = emea, salesforce {}
                    sources.eventlogfile.event_types = [{name = Login, labels = %s}] }
                ]
                """
                    .formatted(eight));

    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith(
            "orgs[1].sources.eventlogfile: an event type promotes 8 labels, so its streams would"
                + " carry 16 label names (environment, event_type, job, late, org, service_name,"
                + " sf_org_id, source and the promoted ones)")
        .contains("Loki 3 refuses a stream with more than 15");
    assertThat(
            bind(TOP.replace(
                    "[Login, API]",
                    "[{name = Login, labels = [F1, F2, F3, F4, F5, F6, F7]}, {name = API, labels = [G1]}]"))
                .first())
        .isNotNull();
  }

  @Test
  void underK8sLeaseEachOrgHasALeaseNamedAfterIt() {
    Shards shards =
        bind(
            TOP.replace("type = file_lease", "type = k8s_lease")
                + "orgs = [{name = prod, salesforce {}}, {name = emea-sandbox, salesforce {}}]");

    assertThat(
            org(shards, "emea-sandbox").loaded().resolved().getString("coordinate.k8s_lease.name"))
        .isEqualTo("sf2loki-leader-emea-sandbox");
  }

  @Test
  void aFileWithoutOrgsIsOneShardWithoutAnOrgBoundExactlyAsBefore() {
    Shards shards = bind(TOP + "orgs = []");

    assertThat(shards.multiOrg()).isFalse();
    assertThat(shards.all()).hasSize(1);
    assertThat(shards.first().org()).isEmpty();
    assertThat(shards.first().config().store().location()).isEqualTo("/var/lib/sf2loki/state.json");
    assertThat(ConfiguredEngine.deploymentLabels(shards.first().config())).doesNotContainKey("org");
  }

  @Test
  void aSingleOrgCommandRefusesAMultiOrgFileNamingWhatHandlesIt() {
    ConfigInvalidException e =
        assertThrows(
            ConfigInvalidException.class,
            () -> Sf2LokiConfig.bind(load(twoOrgs()), getClass().getClassLoader()));

    assertThat(e.getMessage()).contains("orgs lists 2 org(s)").contains("state --org");
  }

  @Test
  void anOperatorCommandSelectsOneOrgByName() {
    Shards shards = bind(twoOrgs());

    assertThat(shards.select(Optional.of("emea")).describe()).isEqualTo("org emea");
    assertThatThrownBy(() -> shards.select(Optional.empty()))
        .hasMessageContaining("several orgs (prod, emea): pass --org NAME");
    assertThatThrownBy(() -> shards.select(Optional.of("apac")))
        .hasMessageContaining("--org apac: no org of that name (there are: prod, emea)");
    assertThatThrownBy(() -> bind(TOP).select(Optional.of("prod")))
        .hasMessageContaining("the configuration has no orgs");
  }

  @Test
  void aProblemOfAnOrgsDerivedConfigurationNamesTheOrgsPath() {
    String noClientId = TOP.replace("client_id = shared-app", "");

    assertThat(
            problems(
                noClientId
                    + "orgs = [{name = prod, salesforce.client_id = p}, {name = emea, salesforce {}}]"))
        .containsExactly("orgs[1].salesforce.client_id must not be empty");
  }

  @Test
  void everyProblemOfEveryOrgIsReportedAtOnceAndASharedOneOnlyOnce() {
    assertThat(
            problems(
                TOP.replace("client_id = shared-app", "")
                    + """
                    service.http_port = eighty
                    orgs = [
                      {name = prod, salesforce {}, sources.eventlogfile.poll_interval = soon}
                      {name = emea, salesforce {}}
                    ]
                    """))
        .containsExactlyInAnyOrder(
            "orgs[0].salesforce.client_id must not be empty",
            "orgs[0].sources.eventlogfile.poll_interval: 'soon' is not a duration (use forms like"
                + " 500ms, 30s, 5m, 1h30m, PT5M, or plain seconds)",
            "orgs[1].salesforce.client_id must not be empty",
            "service.http_port must be an integer (got 'eighty')");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a missing name            | {salesforce {}}                                    | orgs[0].name is required
          a name that is no label   | {name = "prod:eu", salesforce {}}                  | orgs[0].name ('prod:eu') must be letters, digits, '_' and '-' only
          a duplicate name          | {name = emea, salesforce {}}, {name = EMEA, salesforce {}} | orgs[1].name (EMEA) is also the name of orgs[0]: org names must be unique, ignoring case
          an unknown key            | {name = prod, salesforce {}, source {}}            | unknown configuration key 'orgs[0].source' (did you mean 'orgs[0].sources'?)
          an unknown org key        | {name = prod, salesforce {clientid = x}}           | unknown configuration key 'orgs[0].salesforce.clientid' (did you mean 'orgs[0].salesforce.client_id'?)
          an unknown source key     | {name = prod, salesforce {}, sources.eventlogfile.intervall = Daily} | unknown configuration key 'orgs[0].sources.eventlogfile.intervall'
          no salesforce section     | {name = prod}                                      | orgs[0].salesforce is required
          a shared sink key per org | {name = prod, salesforce {}, sink.loki.url = "http://x"} | orgs[0].sink.loki.url cannot be set per org
          an org label per org      | {name = prod, salesforce {}, sink.loki.labels.org = x} | orgs[0].sink.loki.labels.org cannot be set
          an element not an object  | prod                                               | orgs[0] must be an object
          """)
  void anInvalidOrgIsRefusedWithItsPath(String what, String orgs, String expected) {
    assertThat(problems(TOP + "orgs = [" + orgs + "]")).anyMatch(p -> p.startsWith(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          the org id at the top level   | salesforce.org_id = 00D000000000001     | salesforce.org_id names one org
          the org label at the top level | sink.loki.labels.org = prod            | sink.loki.labels.org cannot be shared by several orgs
          an org id label at the top level | sink.loki.labels.sf_org_id = 00D1    | sink.loki.labels.sf_org_id cannot be shared by several orgs
          a lease Kubernetes refuses    | coordinate.type = k8s_lease             | orgs[0].name (Prod_EU) makes the org's Kubernetes Lease name sf2loki-leader-Prod_EU
          orgs that are no list         | orgs = {name = prod}                    | orgs must be a list of objects
          """)
  void aTopLevelKeyThatCannotServeSeveralOrgsIsRefused(String what, String more, String expected) {
    String orgs = more.startsWith("orgs") ? "" : "orgs = [{name = Prod_EU, salesforce {}}]\n";
    assertThat(problems(TOP + orgs + more)).anyMatch(p -> p.startsWith(expected));
  }

  @Test
  void theShardsOfOneDeploymentShareEverythingButWhatIsPerOrg() {
    Shards shards = bind(twoOrgs());

    Shard prod = shards.all().get(0);
    Shard emea = shards.all().get(1);
    assertThat(emea.config().service()).isEqualTo(prod.config().service());
    assertThat(emea.config().lanes()).isEqualTo(prod.config().lanes());
    assertThat(emea.config().coordinatorType()).isEqualTo("file_lease");
  }
}
