package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.Fault;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventLogFileFailuresIT {

  private ElfFixture fx = new ElfFixture();

  @AfterEach
  void close() throws Exception {
    fx.close();
  }

  private static EventLogFileConfig sequential(List<String> types) {
    EventLogFileConfig c = ElfFixture.config(types);
    return new EventLogFileConfig(
        c.eventTypes(),
        c.interval(),
        c.pollInterval(),
        c.lookback(),
        c.settleWindow(),
        c.pageSize(),
        1,
        c.downloadMaxAge(),
        c.timestampColumn(),
        c.spoolMemory(),
        c.spoolDir());
  }

  private RecordingSourceContext cycle(EventLogFileConfig config) throws Exception {
    RecordingSourceContext ctx = new RecordingSourceContext();
    fx.source(config).cycleOnce(ctx);
    return ctx;
  }

  @Test
  void cutDownloadStopsTheTypeWithoutAdvancingAndIsReadNextCycle() throws Exception {
    fx.file("Login", 50, 300);
    fx.file("Login", 40, 5);
    fx.sf.inject(Fault.cutMidStream());
    EventLogFileSource source = fx.source(ElfFixture.config(List.of("Login")));
    RecordingSourceContext ctx = new RecordingSourceContext();
    source.cycleOnce(ctx);
    assertThat(ctx.entries()).isEmpty(); // no row and no cursor advance
    assertThat(fx.counter("sf2loki_eventlogfile_download_errors", "reason", "transport"))
        .isEqualTo(1);
    source.cycleOnce(ctx);
    assertThat(ctx.rows()).hasSize(305);
  }

  @Test
  void downloadHttpErrorIsCountedWithItsStatus() throws Exception {
    fx.file("Login", 50, 3);
    fx.sf.inject(
        Fault.status(
            Fault.Route.LOGFILE, 404, "[{\"errorCode\":\"NOT_FOUND\",\"message\":\"x\"}]"));
    RecordingSourceContext ctx = cycle(ElfFixture.config(List.of("Login")));
    assertThat(ctx.entries()).isEmpty();
    assertThat(fx.counter("sf2loki_eventlogfile_download_errors", "reason", "HTTP 404"))
        .isEqualTo(1);
  }

  @Test
  void fileFailingPastDownloadMaxAgeIsAbandonedAndTheNextFilesRowsCarryThatAdvance()
      throws Exception {
    LogFileSpec old = fx.file("Login", 30 * 60, 3);
    LogFileSpec next = fx.file("Login", 30, 4);
    fx.sf.inject(Fault.serverError(Fault.Route.LOGFILE));
    RecordingSourceContext ctx = cycle(ElfFixture.config(List.of("Login")));
    assertThat(ctx.rows()).hasSize(4);
    assertThat(ctx.checkpointOnlyTokens()).isEmpty();
    ElfCheckpoint carried =
        ElfCheckpoint.parse(ctx.rows().get(0).checkpoint().orElseThrow().value());
    assertThat(carried.contains(old.id(), old.createdDate())).isTrue();
    assertThat(carried.contains(next.id(), next.createdDate())).isFalse();
  }

  @Test
  void abandonedLastFileIsCarriedByTheEndOfTypeToken() throws Exception {
    LogFileSpec old = fx.file("Login", 30 * 60, 3);
    fx.sf.inject(Fault.serverError(Fault.Route.LOGFILE));
    RecordingSourceContext ctx = cycle(ElfFixture.config(List.of("Login")));
    assertThat(ctx.entries()).hasSize(1);
    ElfCheckpoint end = ElfCheckpoint.parse(ctx.checkpointOnlyTokens().get(0).value());
    assertThat(end.contains(old.id(), old.createdDate())).isTrue();
    assertThat(end.watermark()).isEqualTo(old.createdDate());
  }

  @Test
  void throttledListingStopsTheCycleBeforeOtherTypesStart() throws Exception {
    fx.file("Login", 30, 3);
    fx.file("API", 30, 3);
    fx.sf.inject(Fault.requestLimitExceeded(Fault.Route.QUERY));
    RecordingSourceContext ctx = cycle(sequential(List.of("Login", "API")));
    assertThat(ctx.entries()).isEmpty();
    assertThat(fx.sf.stats().requests(Fault.Route.QUERY)).isEqualTo(1); // API never listed
    assertThat(fx.counter("sf2loki_salesforce_api_throttled", "api", "soql")).isEqualTo(1);
  }

  @Test
  void throttledDownloadStopsTheCycle() throws Exception {
    fx.file("Login", 30, 3);
    fx.file("API", 30, 3);
    fx.sf.inject(Fault.requestLimitExceeded(Fault.Route.LOGFILE));
    RecordingSourceContext ctx = cycle(sequential(List.of("Login", "API")));
    assertThat(ctx.entries()).isEmpty();
    assertThat(fx.counter("sf2loki_salesforce_api_throttled", "api", "eventlogfile")).isEqualTo(1);
  }

  @Test
  void aMalformedListingSkipsTheCycleForEveryTypeAndTheNextCycleReadsThem() throws Exception {
    fx.file("Login", 30, 3);
    fx.file("API", 30, 2);
    fx.sf.inject(Fault.malformed(Fault.Route.QUERY, Fault.Kind.NON_JSON));
    EventLogFileSource source = fx.source(sequential(List.of("Login", "API")));
    RecordingSourceContext ctx = new RecordingSourceContext();
    source.cycleOnce(ctx);
    assertThat(ctx.entries()).isEmpty(); // one listing serves both types
    assertThat(
            fx.counter("sf2loki_soql_poll_errors", "source", "eventlogfile", "object", "listing"))
        .isEqualTo(1);
    assertThat(fx.counter("sf2loki_eventlogfile_download_errors", "reason", "listing"))
        .isEqualTo(1);
    source.cycleOnce(ctx);
    assertThat(ctx.rowsOf("Login")).hasSize(3);
    assertThat(ctx.rowsOf("API")).hasSize(2);
  }

  @Test
  void settleWindowDefersFilesYoungerThanTheWindow() throws Exception {
    LogFileSpec settled = fx.file("Login", 20, 3);
    LogFileSpec young = fx.file("Login", 2, 4);
    RecordingSourceContext ctx =
        cycle(ElfFixture.config(List.of("Login"), 1000, Duration.ofMinutes(5)));
    assertThat(ctx.rows()).hasSize(3);
    assertThat(ctx.checkpointOnlyTokens()).isEmpty();
    ElfCheckpoint committed = ElfCheckpoint.parse(ctx.deliverAll().get("eventlogfile:Login"));
    assertThat(committed.contains(settled.id(), settled.createdDate())).isTrue();
    assertThat(committed.contains(young.id(), young.createdDate())).isFalse();
    assertThat(committed.watermark()).isEqualTo(settled.createdDate());
  }

  @Test
  void salesforceClockSkewIsAppliedToTheSettleWindow() throws Exception {
    fx.clock.set(Instant.now().minus(Duration.ofMinutes(10))); // our clock runs 10 min behind
    fx.file("Login", 7, 3); // 7 min old on Salesforce's clock, 3 min "in the future" on ours
    RecordingSourceContext ctx =
        cycle(ElfFixture.config(List.of("Login"), 1000, Duration.ofMinutes(5)));
    assertThat(ctx.rows()).hasSize(3);
  }

  @Test
  void wildcardDiscoversTheOrgsTypesAtTheFirstCycle() throws Exception {
    fx.file("Login", 30, 1);
    fx.file("ReportExport", 30, 2);
    RecordingSourceContext ctx = cycle(ElfFixture.config(List.of("*")));
    assertThat(ctx.rowsOf("Login")).hasSize(1);
    assertThat(ctx.rowsOf("ReportExport")).hasSize(2);
    assertThat(fx.sf.queries().get(0))
        .isEqualTo("SELECT EventType FROM EventLogFile WHERE Interval='Hourly' GROUP BY EventType");
  }

  @Test
  void throttledDiscoveryAbortsTheWholeCycle() throws Exception {
    fx.file("Login", 30, 1);
    fx.sf.inject(Fault.requestLimitExceeded(Fault.Route.QUERY));
    RecordingSourceContext ctx = cycle(ElfFixture.config(List.of("*", "Login")));
    assertThat(ctx.entries()).isEmpty();
    assertThat(fx.sf.stats().requests(Fault.Route.QUERY)).isEqualTo(1);
  }

  @Test
  void failedDiscoveryStillRunsTheExplicitTypes() throws Exception {
    fx.file("Login", 30, 1);
    fx.file("API", 30, 1);
    fx.sf.inject(Fault.serverError(Fault.Route.QUERY));
    RecordingSourceContext ctx = cycle(ElfFixture.config(List.of("*", "Login")));
    assertThat(ctx.rowsOf("Login")).hasSize(1);
    assertThat(ctx.rowsOf("API")).isEmpty();
    assertThat(
            fx.counter("sf2loki_soql_poll_errors", "source", "eventlogfile", "object", "discovery"))
        .isEqualTo(1);
  }

  @Test
  void corruptCheckpointFallsBackToTheLookbackAndIsCounted() throws Exception {
    fx.file("Login", 30, 2);
    RecordingSourceContext ctx =
        new RecordingSourceContext().committed("eventlogfile:Login", "{\"ids\": 7}");
    fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(ctx);
    assertThat(ctx.rows()).hasSize(2);
    assertThat(fx.counter("sf2loki_checkpoint_load_errors", "source", "eventlogfile")).isEqualTo(1);
  }

  @Test
  void expiredSessionIsRefreshedTransparently() throws Exception {
    fx.file("Login", 30, 2);
    EventLogFileSource source = fx.source(ElfFixture.config(List.of("Login")));
    RecordingSourceContext ctx = new RecordingSourceContext();
    source.cycleOnce(ctx);
    fx.sf.expireAllTokens();
    fx.file("Login", 10, 3);
    source.cycleOnce(ctx);
    assertThat(ctx.rows()).hasSize(5);
    assertThat(fx.sf.tokensIssued()).isEqualTo(2);
  }

  @Test
  void anUnreachableTokenEndpointBacksOffInsteadOfWaitingAPollInterval() throws Exception {
    fx.sf.inject(Fault.serverError(Fault.Route.TOKEN).times(12)); // 4 attempts per mint
    RecordingSourceContext ctx = new RecordingSourceContext().cycles(3);
    fx.source(ElfFixture.config(List.of("Login"))).run(ctx);
    assertThat(ctx.waits())
        .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    assertThat(fx.counter("sf2loki_auth_errors")).isEqualTo(3);
  }

  @Test
  void rejectedCredentialsEndTheRunWithAPermanentFailure() throws Exception {
    fx.close();
    fx = new ElfFixture(FakeSalesforce.builder().clientId("cid").clientSecret("other").build());
    RecordingSourceContext ctx = new RecordingSourceContext().cycles(3);
    EventLogFileSource source = fx.source(ElfFixture.config(List.of("Login")));

    assertThatThrownBy(() -> source.run(ctx))
        .isInstanceOfSatisfying(
            AuthException.class,
            e -> {
              assertThat(e.error()).contains("invalid_client");
              assertThat(e.failureClass())
                  .satisfies(
                      c -> {
                        assertThat(c.isPermanent()).isTrue();
                        assertThat(c.reason()).isEqualTo("auth_rejected");
                        assertThat(c.fix()).contains("salesforce.client_id");
                      });
            });
    assertThat(ctx.waits()).as("no retry mints a token").isEmpty();
    assertThat(fx.counter("sf2loki_auth_errors")).isEqualTo(1);
  }

  @Test
  void anErrorInATypeWorkerEndsTheRunInsteadOfBeingLoggedAndSwallowed() {
    fx.file("Login", 30, 2);
    fx.file("API", 30, 2);
    StackOverflowError error = new StackOverflowError("injected");
    RecordingSourceContext ctx =
        new RecordingSourceContext()
            .cycles(3)
            .onEmit(
                e -> {
                  if ("API".equals(e.labels().get("event_type"))) {
                    throw error;
                  }
                });

    assertThatThrownBy(() -> fx.source(ElfFixture.config(List.of("Login", "API"))).run(ctx))
        .isSameAs(error);
    assertThat(ctx.waits()).as("no further cycle").isEmpty();
  }

  @Test
  void runPollsAtTheConfiguredIntervalUntilStopped() throws Exception {
    fx.file("Login", 30, 2);
    RecordingSourceContext ctx = new RecordingSourceContext().cycles(2);
    fx.source(ElfFixture.config(List.of("Login"))).run(ctx);
    assertThat(ctx.waits()).containsExactly(Duration.ofMinutes(10), Duration.ofMinutes(10));
    assertThat(ctx.rows()).hasSize(2);
  }
}
