package io.sf2loki.source.eventlogfile;

import io.sf2loki.config.Durations;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.Pace;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.spi.Causes;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EventLogFile source. Each cycle ({@link ElfCycle}) resolves the event types (explicit ones
 * plus, with {@code *}, the org's, minus the categories another source owns), lists them all with
 * one query and runs up to {@code concurrency} types in parallel through {@link ElfTypeCycle}, then
 * waits {@code poll_interval}. A throttle stops the cycle; an authentication failure backs off from
 * 1 s to 30 s and retries; every other expected failure (API, transport, CSV) is retried next
 * cycle, and anything else a type worker throws (an {@link Error}, a bug) ends the source's run
 * once the other types stopped. With a window {@code until} ({@link ElfWindow}) the run is finite:
 * it returns after the first cycle in which every type was read to the bound, once the bound is not
 * ahead of Salesforce's clock; a type that failed, throttled or waits on a settling file keeps it
 * polling. Never stores checkpoints itself: they ride on the entries (invariant 1).
 */
public final class EventLogFileSource implements Source {

  private static final Logger LOG = LoggerFactory.getLogger(EventLogFileSource.class);
  private static final Duration AUTH_BACKOFF_START = Duration.ofSeconds(1);
  private static final Duration AUTH_BACKOFF_MAX = Duration.ofSeconds(30);

  private final EventLogFileConfig config;
  private final SalesforceRestClient rest;
  private final ElfTypeCycle typeCycle;
  private final ElfCycle cycle;
  private final ElfMetrics metrics;
  private final Ticker ticker;
  private final ThreadFactory threads;
  private final AutoCloseable resources;
  private final ApiBudget budget;

  EventLogFileSource(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ElfTypeCycle typeCycle,
      ElfCycle cycle,
      ElfMetrics metrics,
      Ticker ticker,
      ThreadFactory threads,
      AutoCloseable resources,
      ApiBudget budget) {
    this.budget = budget;
    this.config = config;
    this.rest = rest;
    this.typeCycle = typeCycle;
    this.cycle = cycle;
    this.metrics = metrics;
    this.ticker = ticker;
    this.threads = threads;
    this.resources = resources;
  }

  @Override
  public String name() {
    return "eventlogfile";
  }

  @Override
  public void run(SourceContext ctx) throws AuthException, InterruptedException {
    typeCycle.removeStraySpools();
    ExecutorService workers = newWorkers();
    Duration authBackoff = AUTH_BACKOFF_START;
    try {
      while (!ctx.stopRequested()) {
        long start = ticker.nanoTime();
        Duration wait = config.pollInterval();
        try {
          Pace pace = budget.beforeCycle(rest);
          wait = pace.stretch(wait);
          // paused: the cycle is skipped, nothing advances
          boolean complete = pace.admits() && cycle(ctx, workers);
          authBackoff = AUTH_BACKOFF_START;
          if (complete && typeCycle.untilPassed()) {
            LOG.info(
                "EventLogFile: every event type was read up to {}; the source is done",
                config.window().until().orElseThrow());
            return;
          }
        } catch (AuthException e) {
          if (e.isPermanent()) {
            throw e; // no retry mints a token: the engine gives up after its attempts
          }
          LOG.warn(
              "EventLogFile: Salesforce authentication failed; retrying in {}: {}",
              Durations.format(authBackoff),
              Causes.chain(e));
          LOG.debug("the authentication failure", e);
          wait = authBackoff;
          authBackoff = min(authBackoff.multipliedBy(2), AUTH_BACKOFF_MAX);
        }
        metrics.cycleSeconds((ticker.nanoTime() - start) / 1_000_000);
        if (ctx.awaitStop(wait)) {
          break;
        }
      }
    } finally {
      workers.shutdownNow();
      closeResources();
    }
  }

  private void closeResources() {
    try {
      resources.close(); // the HTTP client of this run
    } catch (Exception e) {
      LOG.debug("closing the EventLogFile HTTP client failed", e);
    }
  }

  private ExecutorService newWorkers() {
    return Executors.newFixedThreadPool(
        config.concurrency(),
        r -> {
          Thread t = threads.newThread(r);
          t.setName("sf2loki-eventlogfile");
          return t;
        });
  }

  /** One cycle on its own worker pool (tests and one-shot callers); as {@link #cycle}. */
  boolean cycleOnce(SourceContext ctx) throws AuthException, InterruptedException {
    ExecutorService workers = newWorkers();
    try {
      return cycle(ctx, workers);
    } finally {
      workers.shutdownNow();
    }
  }

  /** One cycle over every type ({@link ElfCycle}); true when every type was read to the end. */
  boolean cycle(SourceContext ctx, ExecutorService workers)
      throws AuthException, InterruptedException {
    return cycle.run(ctx, workers);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
