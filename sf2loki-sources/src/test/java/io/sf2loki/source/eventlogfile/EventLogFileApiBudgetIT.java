package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.testkit.salesforce.Fault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The EventLogFile poller under the org's API budget, against the fake org's daily limit. */
class EventLogFileApiBudgetIT {

  private static final Duration POLL = Duration.ofMinutes(10);
  private final ElfFixture fx = new ElfFixture();

  @BeforeEach
  void meter() {
    fx.budget =
        new ApiBudget(
            new ApiBudgetConfig(0.5, true, Duration.ofMinutes(5), Duration.ofMinutes(1)),
            fx.clock,
            fx.metrics,
            new Random(1));
  }

  @AfterEach
  void close() throws Exception {
    fx.close();
  }

  /** sf2loki has made {@code calls} calls today, of an org allocation of {@code limit}. */
  private void spent(int calls, long limit) {
    fx.sf.apiUsage().limit(limit);
    for (int i = 0; i < calls; i++) {
      fx.budget.answered(200, java.util.Optional.of("api-usage=" + i + "/" + limit));
    }
  }

  private EventLogFileSource source() {
    return fx.source(ElfFixture.config(List.of("Login")));
  }

  @Test
  void requestLimitExceededPausesAndResumesFromTheSamePosition() throws Exception {
    fx.file("Login", 50, 2);
    RecordingSourceContext first = new RecordingSourceContext();
    source().run(first);
    Map<String, String> committed = first.deliverAll();
    assertThat(first.rows()).hasSize(2);

    fx.file("Login", 40, 3);
    fx.sf.apiUsage().limit(fx.sf.apiUsage().used()).enforce(true); // the org's allocation is spent
    RecordingSourceContext throttled = new RecordingSourceContext().cycles(2);
    committed.forEach(throttled::committed);
    source().run(throttled);

    assertThat(throttled.rows()).isEmpty();
    assertThat(throttled.deliverAll()).isEqualTo(committed); // nothing committed past the cursor
    assertThat(throttled.waits().get(1)).isBetween(Duration.ofMinutes(1), Duration.ofSeconds(90));
    assertThat(fx.counter("sf2loki_salesforce_api_throttled", "api", "soql")).isEqualTo(1);

    fx.sf.apiUsage().used(0); // the rolling window frees
    fx.clock.advance(Duration.ofMinutes(2));
    RecordingSourceContext resumed = new RecordingSourceContext();
    committed.forEach(resumed::committed);
    source().run(resumed);

    assertThat(resumed.rows()).hasSize(3); // the new file only, all of it, once
  }

  @Test
  void nearTheShareThePollIntervalStretches() throws Exception {
    fx.file("Login", 50, 1);
    spent(45, 100); // 45 of an allowance of 50

    RecordingSourceContext ctx = new RecordingSourceContext();
    source().run(ctx);

    assertThat(ctx.rows()).hasSize(1);
    assertThat(ctx.waits().get(0)).isGreaterThanOrEqualTo(POLL.multipliedBy(2));
    assertThat(fx.metrics.get("sf2loki_salesforce_api_budget_state").gauge().value()).isEqualTo(1);
  }

  @Test
  void aSpentSharePausesWithoutCalls() throws Exception {
    fx.file("Login", 50, 1);
    spent(5, 10); // 5 of an allowance of 5

    RecordingSourceContext ctx = new RecordingSourceContext();
    source().run(ctx);

    assertThat(ctx.rows()).isEmpty();
    assertThat(fx.sf.stats().requests(Fault.Route.QUERY)).isZero(); // only /limits was called
    assertThat(ctx.waits().get(0)).isGreaterThan(POLL);
  }

  @Test
  void aFailingLimitsPollNeverStopsIngestion() throws Exception {
    fx.file("Login", 50, 2);
    fx.sf.apiUsage().failLimits(true);

    RecordingSourceContext ctx = new RecordingSourceContext();
    source().run(ctx);

    assertThat(ctx.rows()).hasSize(2);
    assertThat(fx.counter("sf2loki_salesforce_limits_poll_errors")).isEqualTo(1);
  }
}
