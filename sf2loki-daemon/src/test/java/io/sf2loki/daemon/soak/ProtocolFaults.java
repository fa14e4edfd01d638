package io.sf2loki.daemon.soak;

import io.sf2loki.testkit.ProtocolFake;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.time.Duration;

/**
 * The wire faults, at the fakes' named fault points: Loki's answers (429, 5xx, a reset mid-body, a
 * lost answer, latency) and Salesforce's (5xx, {@code REQUEST_LIMIT_EXCEEDED}, revoked sessions). A
 * fault queued while nobody pushes or polls strikes the next request it applies to.
 */
final class ProtocolFaults {

  private static final io.sf2loki.testkit.salesforce.Fault.Route[] SERVER_ERROR_ROUTES = {
    io.sf2loki.testkit.salesforce.Fault.Route.QUERY,
    io.sf2loki.testkit.salesforce.Fault.Route.LOGFILE,
    io.sf2loki.testkit.salesforce.Fault.Route.TOKEN
  };

  /** How long a queued fault may wait to strike before the next one is queued anyway. */
  static final Duration STRIKE_WAIT = TestTiming.seconds(30);

  private final FakeLoki loki;
  private final FakeSalesforce salesforce;
  private final FaultTally tally;
  private final Polling polling;

  ProtocolFaults(FakeLoki loki, FakeSalesforce salesforce, FaultTally tally, Polling polling) {
    this.loki = loki;
    this.salesforce = salesforce;
    this.tally = tally;
    this.polling = polling;
  }

  void inject(PlannedFault f) throws InterruptedException {
    ProtocolFake<?> target = f.kind().name().startsWith("LOKI") ? loki : salesforce;
    polling.until(() -> target.pendingFaults() == 0, STRIKE_WAIT);
    switch (f.kind()) {
      case LOKI_429 -> loki.inject(Fault.status(429, "1", f.count()));
      case LOKI_5XX ->
          loki.inject(
              Fault.status(
                  PlannedFault.LOKI_STATUSES[f.variant() % PlannedFault.LOKI_STATUSES.length],
                  f.count()));
      case LOKI_RESET -> loki.inject(Fault.reset(f.count()));
      case LOKI_LOST_ANSWER -> {
        loki.inject(Fault.lostAnswer(f.count()));
        tally.unknownOutcomes(f.count());
      }
      case LOKI_LATENCY -> {
        loki.inject(Fault.latency(f.length(), f.count()));
        if (f.length().compareTo(SoakWorld.PUSH_TIMEOUT) > 0) {
          tally.unknownOutcomes(f.count());
        }
      }
      case SALESFORCE_5XX -> salesforce.inject(serverError(f));
      case SALESFORCE_THROTTLED ->
          salesforce.inject(
              io.sf2loki.testkit.salesforce.Fault.requestLimitExceeded(
                      SERVER_ERROR_ROUTES[f.variant() % 2])
                  .times(f.count()));
      case TOKEN_EXPIRY -> salesforce.expireAllTokens();
      default -> throw new IllegalArgumentException(f.kind() + " is not a wire fault");
    }
    tally.injected(f.kind());
  }

  private static io.sf2loki.testkit.salesforce.Fault serverError(PlannedFault f) {
    io.sf2loki.testkit.salesforce.Fault.Route route =
        SERVER_ERROR_ROUTES[f.variant() % SERVER_ERROR_ROUTES.length];
    int status =
        PlannedFault.SALESFORCE_STATUSES[
            (f.variant() / SERVER_ERROR_ROUTES.length) % PlannedFault.SALESFORCE_STATUSES.length];
    String body =
        route == io.sf2loki.testkit.salesforce.Fault.Route.TOKEN
            ? "{\"error\":\"server_error\",\"error_description\":\"try again later\"}"
            : "[{\"message\":\"An unexpected error occurred\",\"errorCode\":\"UNKNOWN_EXCEPTION\"}]";
    return new io.sf2loki.testkit.salesforce.Fault.Status(route, status, body, f.count());
  }
}
