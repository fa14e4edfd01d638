package io.sf2loki.cli;

import static io.sf2loki.cli.DoctorFixture.check;
import static io.sf2loki.cli.DoctorFixture.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.salesforce.Fault.Route;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command: its rows, table, JSON shape, exit codes, prerequisites and per-check timeout. */
class DoctorCommandTest {

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

  @Test
  void aHealthyDeploymentPassesOrSkipsEveryCheckAndExitsZero() throws Exception {
    CliRun run = fx.doctor("");

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out())
        .containsPattern("PASS +config +sources=none sink=loki store=file coordinate=noop")
        .containsPattern("PASS +auth +flow=client_credentials instance_url=.* org_id=00D")
        .containsPattern("PASS +clock_skew")
        .containsPattern("PASS +limits +\\d+ of 15000 calls left")
        .containsPattern("PASS +loki")
        .containsPattern("PASS +state")
        .containsPattern("SKIP +lease +coordinate.type = noop")
        .containsPattern("SKIP +k8s_rbac")
        .contains("6 passed, 0 warnings, 0 failed, 2 skipped");
  }

  @Test
  void jsonListsEveryCheckWithStatusDetailRemedyAndTheExitCode() throws Exception {
    JsonNode report = report(fx.doctor("", "--json"));

    List<String> names = new ArrayList<>();
    report.path("checks").forEach(c -> names.add(c.path("name").asText()));
    assertThat(names)
        .containsExactly(
            "config", "auth", "clock_skew", "limits", "loki", "state", "lease", "k8s_rbac");
    JsonNode auth = check(report, "auth").orElseThrow();
    assertThat(auth.path("status").asText()).isEqualTo("PASS");
    assertThat(auth.path("remedy").isNull()).isTrue();
    assertThat(auth.path("duration_ms").isIntegralNumber()).isTrue();
    assertThat(report.path("summary").path("passed").asInt()).isEqualTo(6);
    assertThat(report.path("summary").path("skipped").asInt()).isEqualTo(2);
    assertThat(report.path("exit_code").asInt()).isZero();
  }

  @Test
  void anyFailExitsOneAndPrintsItsRemedyUnderTheRow() throws Exception {
    fx.loki.inject(Fault.status(401, 1));

    CliRun run = fx.doctor("");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .containsPattern("FAIL +loki .*HTTP 401")
        .containsPattern("-> check sink.loki.tenant_id")
        .contains("1 failed");
  }

  @Test
  void aConfigThatDoesNotLoadIsTheOnlyRowAndExitsTwo() throws Exception {
    CliRun run = fx.doctor("sink.loki.timeout = forever\n", "--json");

    assertThat(run.exitCode()).isEqualTo(2);
    JsonNode report = report(run);
    assertThat(report.path("checks")).hasSize(1);
    assertThat(check(report, "config").orElseThrow().path("detail").asText())
        .contains("sink.loki.timeout");
    assertThat(report.path("exit_code").asInt()).isEqualTo(2);
  }

  @Test
  void checksThatNeedAuthAreSkippedWhenAuthFails() throws Exception {
    fx.clientCredentials("wrong-secret");

    JsonNode report = report(fx.doctor("", "--json"));

    assertThat(check(report, "auth").orElseThrow().path("status").asText()).isEqualTo("FAIL");
    JsonNode skew = check(report, "clock_skew").orElseThrow();
    assertThat(skew.path("status").asText()).isEqualTo("SKIP");
    assertThat(skew.path("detail").asText()).isEqualTo("needs auth, which is FAIL");
    assertThat(check(report, "loki").orElseThrow().path("status").asText()).isEqualTo("PASS");
  }

  @Test
  void aCheckThatNeverAnswersFailsAtItsTimeoutAndTheRestStillRun() throws Exception {
    fx.sf.inject(
        new io.sf2loki.testkit.salesforce.Fault.Latency(Route.TOKEN, Duration.ofSeconds(30), 1));

    long start = System.nanoTime();
    CliRun run = fx.doctor("", "--json", "--timeout", "1s");
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    JsonNode auth = check(report(run), "auth").orElseThrow();
    assertThat(auth.path("status").asText()).isEqualTo("FAIL");
    assertThat(auth.path("detail").asText()).isEqualTo("no answer within 1s");
    assertThat(check(report(run), "state").orElseThrow().path("status").asText()).isEqualTo("PASS");
    assertThat(took).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void anUnparsableTimeoutIsAUsageError() throws Exception {
    CliRun run = fx.doctor("", "--timeout", "soon");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--timeout");
  }

  @Test
  void theProbesLeaveNoFileBehindAndTheLiveStateUntouched() throws Exception {
    Files.writeString(fx.state, "{\"pubsub:/event/LoginEventStream\": \"AAAA\"}");
    byte[] before = Files.readAllBytes(fx.state);

    fx.doctor("");

    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("state.json", "sf2loki.conf");
    }
    assertThat(Files.readAllBytes(fx.state)).isEqualTo(before);
  }
}
