package io.sf2loki.cli;

import static io.sf2loki.cli.DoctorFixture.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code doctor} on a configuration of orgs against the fake org: each org's checks once per org,
 * naming it, the shared ones once, one org's failure leaving the other's rows intact, {@code --org}
 * choosing one.
 */
class DoctorOrgsTest {

  /** prod logs in with the shared secret; emea overrides it with one the fake refuses. */
  private static final String TWO_ORGS =
      """
      orgs = [
        { name = prod, salesforce {} }
        { name = emea, salesforce.client_secret = "wrong-secret" }
      ]
      """;

  @TempDir Path dir;
  DoctorFixture fx;

  @BeforeEach
  void start() throws Exception {
    fx = new DoctorFixture(dir);
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  /** The row {@code name} of {@code org} (null: a shared row). */
  private static Optional<JsonNode> row(JsonNode report, String org, String name) {
    for (JsonNode c : report.path("checks")) {
      boolean sameOrg = org == null ? c.path("org").isNull() : org.equals(c.path("org").asText());
      if (name.equals(c.path("name").asText()) && sameOrg && c.has("org")) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  private static String status(JsonNode report, String org, String name) {
    return row(report, org, name).orElseThrow().path("status").asText();
  }

  @Test
  void eachOrgRunsItsOwnChecksNamedByItsOrgAndTheSharedChecksRunOnce() throws Exception {
    JsonNode report = report(fx.doctor(TWO_ORGS, "--json"));

    List<String> rows = new ArrayList<>();
    report
        .path("checks")
        .forEach(
            c ->
                rows.add(
                    (c.path("org").isNull() ? "" : c.path("org").asText() + " ")
                        + c.path("name").asText()));
    assertThat(rows)
        .containsExactly(
            "config",
            "prod auth",
            "prod clock_skew",
            "prod limits",
            "prod state",
            "prod lease",
            "emea auth",
            "emea clock_skew",
            "emea limits",
            "emea state",
            "emea lease",
            "loki",
            "k8s_rbac");
    assertThat(row(report, null, "config").orElseThrow().path("detail").asText())
        .isEqualTo("orgs=prod,emea sink=loki store=file coordinate=noop");
  }

  @Test
  void anOrgWithATenantOfItsOwnChecksLokiWithThatTenantAndTheOthersShareOneRow() throws Exception {
    JsonNode report =
        report(
            fx.doctor(
                """
                orgs = [
                  { name = prod, salesforce {} }
                  { name = emea, salesforce {}, sink.loki.tenant_id = emea-tenant }
                ]
                """,
                "--json"));

    assertThat(row(report, "prod", "loki")).isEmpty();
    assertThat(row(report, "emea", "loki").orElseThrow().path("detail").asText())
        .contains("tenant emea-tenant accepted an empty push");
    assertThat(status(report, null, "loki")).isEqualTo("PASS");
    assertThat(fx.loki.pushes())
        .extracting(p -> p.headers().getOrDefault("x-scope-orgid", ""))
        .containsExactlyInAnyOrder("emea-tenant", "");
  }

  @Test
  void whenEveryOrgHasATenantOfItsOwnTheSharedLokiRowIsSkipped() throws Exception {
    JsonNode report =
        report(
            fx.doctor(
                """
                orgs = [
                  { name = prod, salesforce {}, sink.loki.tenant_id = prod-tenant }
                  { name = emea, salesforce {}, sink.loki.tenant_id = emea-tenant }
                ]
                """,
                "--json"));

    assertThat(status(report, "prod", "loki")).isEqualTo("PASS");
    assertThat(status(report, "emea", "loki")).isEqualTo("PASS");
    assertThat(row(report, null, "loki").orElseThrow().path("detail").asText())
        .isEqualTo("every org pushes with a tenant of its own (each org's loki row)");
    assertThat(status(report, null, "loki")).isEqualTo("SKIP");
  }

  @Test
  void oneOrgFailingAuthSkipsOnlyItsOwnDependentChecksAndTheRunExitsOne() throws Exception {
    CliRun run = fx.doctor(TWO_ORGS, "--json");
    JsonNode report = report(run);

    assertThat(status(report, "prod", "auth")).isEqualTo("PASS");
    assertThat(status(report, "prod", "limits")).isEqualTo("PASS");
    assertThat(status(report, "emea", "auth")).isEqualTo("FAIL");
    assertThat(row(report, "emea", "limits").orElseThrow().path("detail").asText())
        .isEqualTo("needs auth, which is FAIL");
    assertThat(status(report, "emea", "state")).isEqualTo("PASS");
    assertThat(status(report, null, "loki")).isEqualTo("PASS");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(report.path("exit_code").asInt()).isEqualTo(1);
  }

  @Test
  void eachOrgsStateRowReadsTheOrgsOwnDocument() throws Exception {
    JsonNode report = report(fx.doctor(TWO_ORGS, "--json"));

    assertThat(row(report, "prod", "state").orElseThrow().path("detail").asText())
        .contains("state-prod.json readable");
    assertThat(row(report, "emea", "state").orElseThrow().path("detail").asText())
        .contains("state-emea.json readable");
  }

  @Test
  void theTableNamesEachRowsOrgBeforeTheCheck() throws Exception {
    CliRun run = fx.doctor(TWO_ORGS);

    assertThat(run.out())
        .containsPattern("PASS +config +orgs=prod,emea")
        .containsPattern("PASS +\\[prod\\] auth +flow=client_credentials")
        .containsPattern("FAIL +\\[emea\\] auth +client_credentials: ")
        .containsPattern("SKIP +\\[emea\\] clock_skew +needs auth, which is FAIL")
        .containsPattern("PASS +loki ")
        .contains("1 failed");
  }

  @Test
  void orgLimitsTheRunToThatOrgAndTheSharedChecks() throws Exception {
    CliRun run = fx.doctor(TWO_ORGS, "--json", "--org", "prod");
    JsonNode report = report(run);

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(report.path("checks"))
        .noneMatch(c -> c.path("org").asText().equals("emea"))
        .anyMatch(c -> c.path("org").asText().equals("prod"));
    assertThat(status(report, null, "loki")).isEqualTo("PASS");
  }

  @Test
  void anUnknownOrgIsAUsageErrorNamingTheKnownOnes() throws Exception {
    CliRun run = fx.doctor(TWO_ORGS, "--org", "apac");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--org apac: no org of that name (there are: prod, emea)");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void orgOnASingleOrgConfigurationIsAUsageError() throws Exception {
    CliRun run = fx.doctor("", "--org", "prod");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--org prod: the configuration has no orgs");
  }

  @Test
  void aSingleOrgReportHasNoOrgField() throws Exception {
    JsonNode report = report(fx.doctor("", "--json"));

    assertThat(report.path("checks")).allMatch(c -> !c.has("org"));
  }
}
