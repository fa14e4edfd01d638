package io.sf2loki.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.cli.doctor.CheckReport;
import io.sf2loki.testkit.salesforce.Fault;
import io.sf2loki.testkit.salesforce.Fault.Route;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** auth, clock_skew and the per-source permission checks against the fake org. */
class DoctorSalesforceTest {

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

  private static String status(JsonNode check) {
    return check.path("status").asText();
  }

  @Test
  void aJwtBearerLoginPassesWithTheFlowInstanceAndOrgId() throws Exception {
    JsonNode auth = fx.jwt(DoctorFixture.USER).checkOf("", "auth");

    assertThat(status(auth)).isEqualTo("PASS");
    assertThat(auth.path("detail").asText())
        .startsWith("flow=jwt_bearer instance_url=" + fx.sf.uri())
        .endsWith("org_id=00D000000000001AAA");
  }

  @Test
  void aUserWhoIsNotPreAuthorisedFailsWithTheConnectedAppRemedy() throws Exception {
    JsonNode auth = fx.jwt("someone-else@example.com").checkOf("", "auth");

    assertThat(status(auth)).isEqualTo("FAIL");
    assertThat(auth.path("detail").asText()).contains("invalid_grant").contains("pre-authorised");
    assertThat(auth.path("remedy").asText()).contains("Admin approved users are pre-authorized");
  }

  @Test
  void anExpiredJwtAssertionFailsWithTheClockRemedy() throws Exception {
    fx.sf.serverClockOffset(Duration.ofMinutes(10));

    JsonNode auth = fx.jwt(DoctorFixture.USER).checkOf("", "auth");

    assertThat(status(auth)).isEqualTo("FAIL");
    assertThat(auth.path("remedy").asText()).contains("NTP");
  }

  @Test
  void aWrongClientSecretFailsNamingTheSecretKey() throws Exception {
    JsonNode auth = fx.clientCredentials("wrong").checkOf("", "auth");

    assertThat(status(auth)).isEqualTo("FAIL");
    assertThat(auth.path("detail").asText()).contains("invalid_client");
    assertThat(auth.path("remedy").asText()).contains("salesforce.client_secret");
  }

  @Test
  void aUserNotAdminApprovedForTheAppFailsNamingProfilesAndPermissionSets() throws Exception {
    fx.sf.inject(
        new Fault.Status(
            Route.TOKEN,
            400,
            "{\"error\":\"invalid_app_access\",\"error_description\":\"user is not admin"
                + " approved to access this app\"}",
            1));

    JsonNode auth = fx.checkOf("", "auth");

    assertThat(auth.path("detail").asText()).contains("invalid_app_access");
    assertThat(auth.path("remedy").asText()).contains("Permission Sets");
  }

  @Test
  void aLoginUrlWhereNothingListensFailsPointingAtTheNetwork() throws Exception {
    fx.clientCredentials("secret");
    fx.salesforce = fx.salesforce.replace(fx.sf.uri().toString(), "http://127.0.0.1:9");

    JsonNode auth = fx.checkOf("", "auth");

    assertThat(status(auth)).isEqualTo("FAIL");
    assertThat(auth.path("detail").asText()).contains("transport");
    assertThat(auth.path("remedy").asText()).contains("salesforce.login_url");
  }

  @Test
  void aTokenEndpointFailingWith503FailsAfterOneRequestWithoutRetrying() throws Exception {
    fx.sf.inject(new Fault.Status(Route.TOKEN, 503, "{}", 10));
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    root.addAppender(logged);
    CliRun run;
    try {
      run = fx.doctor(ELF + OBJECTS, "--json");
    } finally {
      root.detachAppender(logged);
    }

    JsonNode auth = DoctorFixture.check(DoctorFixture.report(run), "auth").orElseThrow();
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(status(auth)).isEqualTo("FAIL");
    assertThat(auth.path("detail").asText()).startsWith("Salesforce unreachable").contains("503");
    assertThat(auth.path("remedy").asText()).contains("status.salesforce.com");
    assertThat(fx.sf.stats().requests(Route.TOKEN)).isEqualTo(1);
    assertThat(run.err()).doesNotContainIgnoringCase("retrying");
    assertThat(logged.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(m -> m.contains("retrying"));
  }

  @Test
  void aConfiguredOrgIdOfAnotherOrgFails() throws Exception {
    JsonNode auth = fx.checkOf("salesforce.org_id = 00D000000000002AAA\n", "auth");

    assertThat(status(auth)).isEqualTo("FAIL");
    assertThat(auth.path("remedy").asText()).contains("00D000000000001AAA");
  }

  private static CheckReport row(List<CheckReport> reports, String name) {
    return reports.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aClockWithinThirtySecondsOfSalesforcesPasses() throws Exception {
    List<CheckReport> run = fx.runWith("", Clock.offset(Clock.systemUTC(), Duration.ofSeconds(5)));

    assertThat(row(run, "clock_skew").result().status().name()).isEqualTo("PASS");
  }

  @Test
  void aClockAMinuteOffWarns() throws Exception {
    List<CheckReport> run =
        fx.runWith("", Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-90)));

    CheckReport skew = row(run, "clock_skew");
    assertThat(skew.result().status().name()).isEqualTo("WARN");
    assertThat(skew.result().detail()).contains("ahead of this host's");
  }

  @Test
  void aClockFiveMinutesOffFails() throws Exception {
    List<CheckReport> run = fx.runWith("", Clock.offset(Clock.systemUTC(), Duration.ofMinutes(5)));

    CheckReport skew = row(run, "clock_skew");
    assertThat(skew.result().status().name()).isEqualTo("FAIL");
    assertThat(skew.result().remedy()).hasValueSatisfying(r -> assertThat(r).contains("NTP"));
  }

  private static final String ELF = "sources.eventlogfile.enabled = true\n";

  @Test
  void viewEventLogFilesPassesWhenEventLogFileIsDescribable() throws Exception {
    assertThat(status(fx.checkOf(ELF, "permissions:EventLogFile"))).isEqualTo("PASS");
  }

  @Test
  void aUserWithoutViewEventLogFilesFails() throws Exception {
    fx.sf.revokeEventLogFileAccess();

    JsonNode elf = fx.checkOf(ELF, "permissions:EventLogFile");

    assertThat(status(elf)).isEqualTo("FAIL");
    assertThat(elf.path("detail").asText()).contains("lacks View Event Log Files");
    assertThat(elf.path("remedy").asText()).contains("View Event Log Files permission");
  }

  private static final String OBJECTS =
      "sources.eventlog_objects { enabled = true, objects = [{name = LoginEvent}] }\n";

  @Test
  void aQueryableEventObjectPasses() throws Exception {
    fx.sf.eventObjects().define("LoginEvent", "EventDate", true);

    assertThat(status(fx.checkOf(OBJECTS, "permissions:LoginEvent"))).isEqualTo("PASS");
  }

  @Test
  void anEventObjectTheUserCannotQueryFailsWithSalesforcesErrorCode() throws Exception {
    JsonNode object = fx.checkOf(OBJECTS, "permissions:LoginEvent");

    assertThat(status(object)).isEqualTo("FAIL");
    assertThat(object.path("detail").asText()).contains("400 INVALID_TYPE");
    assertThat(object.path("remedy").asText())
        .contains("View Real-Time Event Monitoring Data")
        .contains("sources.eventlog_objects.objects");
  }

  private static final String ELO =
      "sources.eventlog_objects { enabled = true, objects = [{name = LoginEventLog}] }\n";

  @Test
  void aQueryableEventLogObjectPassesWithoutAQueryTheOrgRefuses() throws Exception {
    fx.sf.eventLogObjects().define("LoginEventLog");

    assertThat(status(fx.checkOf(ELO, "permissions:LoginEventLog"))).isEqualTo("PASS");
    assertThat(fx.sf.eventLogObjects().refusals()).isZero();
  }

  @Test
  void anEventLogObjectWithoutThePermissionIsOneFailNamingItAndTheObjectsProbeIsSkipped()
      throws Exception {
    fx.sf.eventLogObjects().define("LoginEventLog");
    fx.sf.eventLogObjects().revokeAccess();

    JsonNode report = DoctorFixture.report(fx.doctor(ELO, "--json"));
    JsonNode all = DoctorFixture.check(report, "permissions:event_log_objects").orElseThrow();

    assertThat(status(all)).isEqualTo("FAIL");
    assertThat(all.path("detail").asText()).contains("View Event Log Object Data");
    assertThat(status(DoctorFixture.check(report, "permissions:LoginEventLog").orElseThrow()))
        .isEqualTo("SKIP");
  }

  @Test
  void anOrgWithoutEventLogObjectsIsOneFailHoweverManyAreConfigured() throws Exception {
    JsonNode report =
        DoctorFixture.report(
            fx.doctor(
                "sources.eventlog_objects { enabled = true, presets = [event_log_objects],"
                    + " objects = [{name = LoginEventLog}, {name = ReportEventLog}] }\n",
                "--json"));

    List<String> failed = new ArrayList<>();
    report
        .path("checks")
        .forEach(
            c -> {
              if (status(c).equals("FAIL")) {
                failed.add(c.path("name").asText());
              }
            });
    assertThat(failed).containsExactly("permissions:event_log_objects");
    assertThat(
            DoctorFixture.check(report, "permissions:event_log_objects")
                .orElseThrow()
                .path("detail")
                .asText())
        .contains("lists no queryable Event Log Objects", "Shield");
  }

  @Test
  void theEventLogObjectsPresetPassesNamingWhatItWouldRead() throws Exception {
    fx.sf.eventLogObjects().define("LoginEventLog");
    fx.sf.eventLogObjects().define("ReportEventLog");

    JsonNode all =
        fx.checkOf(
            "sources.eventlog_objects { enabled = true, presets = [event_log_objects] }\n",
            "permissions:event_log_objects");

    assertThat(status(all)).isEqualTo("PASS");
    assertThat(all.path("detail").asText()).contains("LoginEventLog", "ReportEventLog");
  }
}
