package io.sf2loki.salesforce.limits;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.CallObserver;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The share of one org's daily API allocation sf2loki may spend, shared by every poller of the org
 * (EventLogFile, event objects, ApexLog) through the org's session ({@link
 * io.sf2loki.salesforce.org.SalesforceOrgSession}): their REST clients report each answer here, and
 * each poller asks {@link #beforeCycle} how fast it may go.
 *
 * <p>The allowance is {@code share × limit}, the limit learned from {@code Sforce-Limit-Info} or
 * {@code /limits}; use is sf2loki's own calls in the rolling 24 hours. Under 80 % of the allowance
 * the pace is normal; from 80 % the poll intervals stretch by {@code 0.2 / (1 − use)} (2× at 90 %,
 * 4× at 95 %, at most 20×); at 100 % the pollers pause until enough calls leave the window. A 403
 * {@code REQUEST_LIMIT_EXCEEDED} pauses them for a backoff ({@code
 * salesforce.limits.throttle_backoff}, doubling up to 30 times it, reset by any 2xx). A WARN marks
 * every change of pace; {@code sf2loki_salesforce_api_budget_state} shows it. Time comes from the
 * injected clock.
 */
public final class ApiBudget implements CallObserver {

  private static final Logger LOG = LoggerFactory.getLogger(ApiBudget.class);
  static final double SLOW_DOWN_AT = 0.8;
  static final double MAX_STRETCH = 20;
  static final int THROTTLE_MAX_FACTOR = 30;

  private final ApiBudgetConfig config;
  private final Clock clock;
  private final LimitsMetrics metrics;
  private final Backoff throttleBackoff;
  private final RollingCalls calls = new RollingCalls();
  private final LimitsPoller poller;
  private volatile long dailyLimit;
  private volatile boolean headerErrorLogged;
  private int throttles;
  private Instant throttledUntil = Instant.MIN;
  private int lastLevel;
  private final boolean metered;

  /** A budget of its own; pollers of one org share their org session's. */
  public ApiBudget(
      ApiBudgetConfig config, Clock clock, MeterRegistry registry, RandomGenerator random) {
    this(config, clock, registry, random, true);
  }

  private ApiBudget(
      ApiBudgetConfig config,
      Clock clock,
      MeterRegistry registry,
      RandomGenerator random,
      boolean metered) {
    this.metered = metered;
    this.config = config;
    this.clock = clock;
    this.metrics = new LimitsMetrics(registry);
    this.throttleBackoff =
        Backoff.exponentialPlusHalf(
            config.throttleBackoff(),
            config.throttleBackoff().multipliedBy(THROTTLE_MAX_FACTOR),
            random);
    this.poller =
        new LimitsPoller(config.limitsPollInterval(), clock, metrics, this::learnedLimits);
  }

  /**
   * A budget that never slows anyone and polls nothing, for sources wired around a client of their
   * own without one.
   */
  public static ApiBudget unmetered() {
    return new ApiBudget(
        new ApiBudgetConfig(1, false, Duration.ofMinutes(5), Duration.ofMinutes(1)),
        Clock.fixed(Instant.EPOCH, java.time.ZoneOffset.UTC), // never read: no pace, no backoff
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry(),
        () -> 0L,
        false);
  }

  @Override
  public void answered(int status, Optional<String> limitInfo) {
    calls.add(clock.instant());
    LimitInfo info = LimitInfo.parse(limitInfo);
    if (info instanceof LimitInfo.Usage usage) {
      metrics.usage(usage);
      dailyLimit = usage.limit();
    } else if (info instanceof LimitInfo.Malformed malformed) {
      metrics.headerError();
      if (!headerErrorLogged) {
        headerErrorLogged = true;
        LOG.warn(
            "Salesforce sent a Sforce-Limit-Info header without api-usage=used/limit ('{}');"
                + " counted in sf2loki_salesforce_limit_info_errors, logged once",
            abbreviate(malformed.value()));
      }
    }
    if (status >= 200 && status < 300) {
      synchronized (this) {
        throttles = 0;
      }
    }
  }

  @Override
  public synchronized void throttled() {
    throttles++;
    Instant until = clock.instant().plus(throttleBackoff.delay(throttles));
    if (until.isAfter(throttledUntil)) {
      throttledUntil = until;
    }
  }

  /**
   * Polls {@code /limits} when due (through {@code rest}; its failures never reach the caller, but
   * a token failure does, as any call's) and returns the pace for the next cycle.
   */
  public Pace beforeCycle(SalesforceRestClient rest) throws AuthException, InterruptedException {
    if (config.limitsEnabled()) {
      poller.pollIfDue(rest);
    }
    return pace();
  }

  /** The pace now; logs a WARN when it changed since the last call. */
  public synchronized Pace pace() {
    if (!metered) {
      return new Pace.Normal();
    }
    Instant now = clock.instant();
    long used = calls.count(now);
    long allowance = config.allowance(dailyLimit);
    Pace pace = decide(now, used, allowance);
    metrics.budget(used, allowance, pace.level());
    if (pace.level() != lastLevel) {
      lastLevel = pace.level();
      announce(pace, used, allowance);
    }
    return pace;
  }

  private Pace decide(Instant now, long used, long allowance) {
    if (now.isBefore(throttledUntil)) {
      return new Pace.Paused(Duration.between(now, throttledUntil), "REQUEST_LIMIT_EXCEEDED");
    }
    if (allowance <= 0) {
      return new Pace.Normal(); // no limit learned yet
    }
    double use = (double) used / allowance;
    if (use >= 1) {
      Instant freed = calls.freedAt(now, allowance - 1);
      return new Pace.Paused(Duration.between(now, freed), "share spent");
    }
    if (use >= SLOW_DOWN_AT) {
      return new Pace.Slowed(Math.min(MAX_STRETCH, (1 - SLOW_DOWN_AT) / (1 - use)));
    }
    return new Pace.Normal();
  }

  private void announce(Pace pace, long used, long allowance) {
    String share = Math.round(config.share() * 100) + " %";
    if (pace instanceof Pace.Slowed s) {
      LOG.warn(
          "Salesforce API budget: {} of {} calls ({} of the org's daily allocation) used in 24h;"
              + " pollers slow down {}x",
          used,
          allowance,
          share,
          String.format(java.util.Locale.ROOT, "%.1f", s.factor()));
    } else if (pace instanceof Pace.Paused p) {
      LOG.warn(
          "Salesforce API budget: {} ({} of {} calls used in 24h); pollers pause for {}",
          p.reason(),
          used,
          allowance,
          p.left());
    } else {
      LOG.warn(
          "Salesforce API budget: back to normal ({} of {} calls used in 24h)", used, allowance);
    }
  }

  private void learnedLimits(List<OrgLimit> limits) {
    for (OrgLimit l : limits) {
      if (OrgLimit.DAILY_API_REQUESTS.equals(l.name()) && l.max() > 0) {
        dailyLimit = l.max();
      }
    }
  }

  private static String abbreviate(String value) {
    return value.length() <= 80 ? value : value.substring(0, 80) + "...";
  }
}
