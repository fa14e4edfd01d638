package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator commands on a multi-org configuration: {@code state ... --org} address one org's
 * document through its view, {@code lease show} lists every org's lease, the running-leader guard
 * inspects the addressed org's lease, and {@code config check} accepts the multi-org example.
 */
class MultiOrgCliTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static final String ORGS =
      """

      orgs = [
        { name = prod, salesforce {} }
        { name = emea, salesforce.login_url = "https://acme--emea.sandbox.my.salesforce.com" }
      ]
      """;

  private StateFixture noop() throws Exception {
    return new StateFixture(dir, "coordinate.type = noop" + ORGS);
  }

  private StateFixture fileLease() throws Exception {
    return new StateFixture(
        dir,
        "coordinate { type = file_lease, file_lease { path = \"LEASE\", holder_id = cli } }"
            + ORGS);
  }

  /** Writes prod's lease, held by node-a for an hour; returns its expiry. */
  private Instant prodLeaseHeldByNodeA() throws Exception {
    Instant expires = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    Files.writeString(
        dir.resolve("leader-prod.lease"),
        "{\"holder\": \"node-a\", \"expires_at\": \"" + expires + "\", \"epoch\": 6}");
    return expires;
  }

  private Map<String, String> document(String name) throws Exception {
    return JSON.readValue(
        dir.resolve(name).toFile(), new com.fasterxml.jackson.core.type.TypeReference<>() {});
  }

  @Test
  void stateShowOfAnOrgListsItsKeysWithoutTheirPrefixFromThePythonDocumentUntilItHasItsOwn()
      throws Exception {
    StateFixture config = noop();
    Files.writeString(
        dir.resolve("state.json"),
        "{\"org=prod:apexlog\": \"p\", \"org=emea:apexlog\": \"e\", \"eventlogfile:Login\": \"legacy\"}");

    CliRun prod = config.run("state", "show", "--org", "prod");
    CliRun emea = config.run("state", "show", "--org", "emea");

    assertThat(prod.exitCode()).as(prod.err()).isZero();
    assertThat(prod.out()).contains("apexlog\tp").contains("eventlogfile:Login\tlegacy");
    assertThat(emea.out()).contains("apexlog\te").doesNotContain("eventlogfile:Login");
    assertThat(dir.resolve("state-prod.json")).doesNotExist(); // show only reads
  }

  @Test
  void stateSetOfAnOrgWritesThePrefixedKeyIntoTheOrgsOwnDocument() throws Exception {
    StateFixture config = noop();

    CliRun set =
        config.run("state", "set", "--org", "emea", "apexlog", "2026-08-01T00:00:00.000+0000");

    assertThat(set.exitCode()).as(set.err()).isZero();
    assertThat(document("state-emea.json"))
        .containsEntry("org=emea:apexlog", "2026-08-01T00:00:00.000+0000")
        .containsKey("__migrated_from__");
    assertThat(dir.resolve("state.json")).doesNotExist();
    assertThat(config.run("state", "export", "--org", "emea").out())
        .contains("\"apexlog\":\"2026-08-01T00:00:00.000+0000\"");
  }

  @Test
  void aStateCommandOnSeveralOrgsNeedsOneNamedAndRefusesAnUnknownOne() throws Exception {
    StateFixture config = noop();

    CliRun missing = config.run("state", "show");
    CliRun unknown = config.run("state", "show", "--org", "apac");

    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("several orgs (prod, emea): pass --org NAME");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err()).contains("--org apac: no org of that name");
  }

  @Test
  void theRunningLeaderGuardInspectsTheAddressedOrgsOwnLease() throws Exception {
    StateFixture config = fileLease();
    Instant expires = prodLeaseHeldByNodeA();

    CliRun prod = config.run("state", "delete", "--org", "prod", "apexlog");
    CliRun emea = config.run("state", "delete", "--org", "emea", "apexlog");

    assertThat(prod.exitCode()).isEqualTo(1);
    assertThat(prod.err())
        .contains("leader-prod.lease")
        .contains("held by node-a until " + expires);
    assertThat(emea.exitCode()).isEqualTo(1);
    assertThat(emea.err()).contains("leader-emea.lease").contains("does not exist");
  }

  @Test
  void leaseShowListsEveryOrgsLeaseWithItsHolderAndExpiry() throws Exception {
    StateFixture config = fileLease();
    Instant expires = prodLeaseHeldByNodeA();

    CliRun text = config.run("lease", "show");
    CliRun json = config.run("lease", "show", "--json");

    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .containsPattern("org\\s+prod\\ntype\\s+file_lease\\nlocation\\s+\\S*leader-prod.lease")
        .contains("holder    node-a")
        .contains("expires   " + expires)
        .containsPattern("org\\s+emea\\ntype\\s+file_lease\\nlocation\\s+\\S*leader-emea.lease")
        .contains("state     ABSENT");
    JsonNode leases = JSON.readTree(json.out());
    assertThat(leases.isArray()).isTrue();
    assertThat(leases.get(0).get("org").asText()).isEqualTo("prod");
    assertThat(leases.get(0).get("holder").asText()).isEqualTo("node-a");
    assertThat(leases.get(1).get("org").asText()).isEqualTo("emea");
    assertThat(leases.get(1).get("state").asText()).isEqualTo("ABSENT");
  }

  @Test
  void leaseShowListsTheRosterOfLiveReplicasWithTheirExpiries() throws Exception {
    StateFixture config = fileLease();
    Instant live = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    Instant gone = Instant.parse("2026-01-01T00:00:00Z");
    Files.writeString(
        dir.resolve("leader-roster.lease"),
        "{\"node-a\": \"" + live + "\", \"node-b\": \"" + gone + "\"}");

    CliRun text = config.run("lease", "show");

    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .containsPattern("roster\\s+\\S*leader-roster.lease\\n")
        .contains("member    node-a expires " + live + "\n")
        .contains("member    node-b expires " + gone + " (expired)\n");
  }

  @Test
  void configCheckAcceptsTheMultiOrgExample() throws Exception {
    Path key = dir.resolve("salesforce.key");
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    Files.writeString(
        key,
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n");
    Path token = Files.writeString(dir.resolve("loki-token"), "glc_token");
    Path secret = Files.writeString(dir.resolve("emea-secret"), "emea-secret");

    CliRun check =
        CliRun.withEnv(
            Map.of(
                "SF2LOKI_SALESFORCE__PRIVATE_KEY_FILE", key.toString(),
                "SF2LOKI_SINK__LOKI__AUTH_TOKEN_FILE", token.toString(),
                "EMEA_CLIENT_SECRET_FILE", secret.toString()),
            "--config",
            Path.of("..", "examples", "multi-org.conf").toString(),
            "config",
            "check");

    assertThat(check.err()).isEmpty();
    assertThat(check.exitCode()).isZero();
    assertThat(check.out().strip()).isEqualTo("config check OK");
  }
}
