package io.sf2loki.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.Fault;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon logs in to Salesforce at start, before it says it is ready: while the token endpoint
 * fails, {@code /readyz} names the failure and no ready line is logged; a permanent rejection ends
 * the run with one line; once logged in, the org id it resolved labels the entries.
 */
class HonestStartupTest {

  private static final String ORG = "00D5g000004ABCDEAQ";

  @TempDir Path dir;
  private FakeSalesforce salesforce;
  private FakeLoki loki;
  private final Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);

  @BeforeEach
  void start() throws Exception {
    salesforce = FakeSalesforce.builder().clientId("cid").clientSecret("secret").orgId(ORG).build();
    loki = FakeLoki.start();
  }

  @AfterEach
  void stop() {
    loki.close();
    salesforce.close();
  }

  private String config(String more) {
    return OrgRunConfig.hocon(
        salesforce,
        loki,
        dir.resolve("state.json"),
        "service { failure_backoff_min = 100ms, failure_backoff_max = 500ms }\n" + more);
  }

  private static boolean readyLine(ILoggingEvent e) {
    return e.getFormattedMessage().startsWith("sf2loki ready");
  }

  @Test
  void whileSalesforceIsUnreachableReadyzNamesTheFailureAndNothingSaysReady() throws Exception {
    salesforce.inject(
        Fault.status(Fault.Route.TOKEN, 503, "{\"error\":\"unavailable\"}").times(1_000_000));
    try (CapturedLogs logs = new CapturedLogs();
        ComposedRun run = ComposedRun.start(config(""))) {
      await()
          .atMost(TestTiming.seconds(60))
          .until(() -> run.get("/readyz").body().equals("auth_unavailable\n"));

      assertThat(run.get("/readyz").statusCode()).isEqualTo(503);
      assertThat(run.gauge("sf2loki_salesforce_auth_up")).isZero();
      assertThat(run.exposed()).contains("sf2loki_auth_errors_total");
      assertThat(logs.events()).noneMatch(HonestStartupTest::readyLine);

      salesforce.clearFaults(); // Salesforce answers again

      await().atMost(TestTiming.seconds(60)).until(() -> run.get("/readyz").statusCode() == 200);
      assertThat(run.gauge("sf2loki_salesforce_auth_up")).isEqualTo(1);
      assertThat(logs.events()).anyMatch(HonestStartupTest::readyLine);
      assertThat(logs.messages())
          .anyMatch(m -> m.startsWith("authenticated to salesforce org " + ORG + " at "));
    }
  }

  @Test
  void rejectedCredentialsEndTheRunAfterItsAttemptsWithOneLineAndNoTrace() throws Exception {
    salesforce.inject(
        Fault.status(
                Fault.Route.TOKEN,
                400,
                "{\"error\":\"invalid_client\",\"error_description\":\"invalid client credentials\"}")
            .times(1_000));
    try (CapturedLogs logs = new CapturedLogs();
        ComposedRun run = ComposedRun.start(config(""))) {
      EngineOutcome outcome = run.outcome();

      assertThat(DaemonService.exitCode(outcome)).isEqualTo(1);
      assertThat(logs.events())
          .filteredOn(e -> e.getLevel() == Level.ERROR)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getFormattedMessage())
                    .startsWith("sf2loki stopped after a failure: ")
                    .contains("invalid_client", "(auth_rejected, permanent, 3 attempts)", "fix: ")
                    // the remedy doctor prints for client_credentials, decoded from the answer
                    .contains("the client secret does not match the connected app")
                    .contains(
                        "fix: set salesforce.client_secret (or client_secret_file) to the app's"
                            + " Consumer Secret");
                assertThat(e.getThrowableProxy()).isNull();
              });
      assertThat(logs.events())
          .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
          .allMatch(e -> e.getThrowableProxy() == null);
      assertThat(logs.events()).noneMatch(HonestStartupTest::readyLine);
      assertThat(salesforce.stats().requests(Fault.Route.QUERY)).isZero();
    }
  }

  @Test
  void anUnsetOrgIdIsResolvedAtLoginAndLabelsEveryEntry() throws Exception {
    salesforce.addLogFile(
        "Login", "Hourly", hour.minus(3, ChronoUnit.HOURS), hour.minusSeconds(7200), 20);
    try (ComposedRun run = ComposedRun.start(config(""))) {
      await().atMost(TestTiming.seconds(60)).until(() -> loki.entries().size() >= 20);
      assertThat(run.get("/readyz").statusCode()).isEqualTo(200);
    }
    assertThat(loki.entries())
        .extracting(AcceptedEntry::labels)
        .allSatisfy(labels -> assertThat(labels).containsEntry("sf_org_id", ORG));
  }

  @Test
  void anExpectedFailureAtRuntimeIsOneLineWithItsCauseAndNoStackTrace() throws Exception {
    try (CapturedLogs logs = new CapturedLogs();
        ComposedRun run = ComposedRun.start(config(""))) {
      await().atMost(TestTiming.seconds(60)).until(() -> run.get("/readyz").statusCode() == 200);
      // the org's session ends and the token endpoint fails for a whole mint sequence
      salesforce.inject(Fault.serverError(Fault.Route.TOKEN).times(4));
      salesforce.expireAllTokens();

      await()
          .atMost(TestTiming.seconds(60))
          .until(
              () ->
                  logs.messages().stream()
                      .anyMatch(
                          m -> m.startsWith("EventLogFile: Salesforce authentication failed")));
      ILoggingEvent line =
          logs.events().stream()
              .filter(e -> e.getFormattedMessage().startsWith("EventLogFile: Salesforce auth"))
              .findFirst()
              .orElseThrow();
      assertThat(line.getLevel()).isEqualTo(Level.WARN);
      assertThat(line.getFormattedMessage())
          .matches("EventLogFile: Salesforce authentication failed; retrying in \\d+s: .*500.*")
          .doesNotContain("PT");
      assertThat(logs.events())
          .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
          .allMatch(e -> e.getThrowableProxy() == null);
    }
  }
}
