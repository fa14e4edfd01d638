package io.sf2loki.salesforce.limits;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls {@code /limits} at most every interval, at the start of a poller cycle (so only while
 * leading). A failure is counted in {@code sf2loki_salesforce_limits_poll_errors}, logged once
 * until a poll succeeds again, and never reaches the poller. An authentication failure is no {@code
 * /limits} failure: it reaches the poller as that of any of its calls would.
 */
final class LimitsPoller {

  private static final Logger LOG = LoggerFactory.getLogger(LimitsPoller.class);

  private final Duration interval;
  private final Clock clock;
  private final LimitsMetrics metrics;
  private final Consumer<List<OrgLimit>> sink;
  private Instant next = Instant.MIN;
  private boolean failing;

  LimitsPoller(
      Duration interval, Clock clock, LimitsMetrics metrics, Consumer<List<OrgLimit>> sink) {
    this.interval = interval;
    this.clock = clock;
    this.metrics = metrics;
    this.sink = sink;
  }

  /** Polls when the interval has passed since the last poll. */
  void pollIfDue(SalesforceRestClient rest) throws AuthException, InterruptedException {
    synchronized (this) {
      Instant now = clock.instant();
      if (now.isBefore(next)) {
        return;
      }
      next = now.plus(interval);
    }
    try {
      List<OrgLimit> limits = OrgLimit.parse(rest.getJson(rest.dataPath("limits")));
      limits.forEach(metrics::limit);
      sink.accept(limits);
      recovered();
    } catch (SalesforceApiException | RuntimeException e) {
      failed(e);
    }
  }

  private synchronized void recovered() {
    if (failing) {
      failing = false;
      LOG.info("Salesforce /limits poll works again");
    }
  }

  private synchronized void failed(Exception e) {
    metrics.pollError();
    if (!failing) {
      failing = true;
      LOG.warn(
          "Salesforce /limits poll failed ({}); the org-limit gauges keep their last values and"
              + " ingestion goes on; logged once until it works again",
          e.getMessage());
    }
  }
}
