package io.sf2loki.source.eventlogobjects;

import io.sf2loki.config.Durations;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.Pace;
import io.sf2loki.salesforce.rest.ApiErrorException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls the configured objects sequentially in config order, each on its own schedule ({@code
 * poll_interval} at most, shortened by up to 10 % at random; every object is due at startup).
 *
 * <p>Failure handling: a throttle (403 {@code REQUEST_LIMIT_EXCEEDED}) logs ERROR and defers every
 * object still due by one interval; any other query error skips that object until its next interval
 * (WARN, ERROR from the third consecutive failure, {@code sf2loki_soql_poll_errors}); an
 * authentication failure backs off 1 s → 30 s and retries. Nothing a server sends ends the run.
 *
 * <p>With a window {@code until} the run is finite: an object that read everything below it, once
 * its settle bound has passed it ({@link ObjectPoller.Outcome#FINISHED}), is not polled again, and
 * the run returns when every object has; an object that fails, stalls or throttles keeps polling.
 */
public final class EventLogObjectsSource implements Source, AutoCloseable {

  static final String SOURCE = "eventlog_objects";
  private static final Logger LOG = LoggerFactory.getLogger(EventLogObjectsSource.class);
  private static final Duration AUTH_BACKOFF_MAX = Duration.ofSeconds(30);

  private final List<ObjectSpec> objects;
  private final java.util.Optional<EloObjectDiscovery> discovery;
  private final ObjectPoller poller;
  private final ObjectMetrics metrics;
  private final Ticker ticker;
  private final DoubleSupplier jitter;
  private final java.io.Closeable resources;
  private final Map<String, Integer> failures = new HashMap<>();
  private final SalesforceRestClient rest;
  private final ApiBudget budget;
  private Pace pace = new Pace.Normal();

  /**
   * @param jitter values in [-1, 1]: a poll interval is shortened by 10 % times the value's size
   * @param resources closed with the source (the HTTP client)
   */
  EventLogObjectsSource(
      List<ObjectSpec> objects,
      ObjectPoller poller,
      ObjectMetrics metrics,
      Ticker ticker,
      DoubleSupplier jitter,
      java.io.Closeable resources,
      SalesforceRestClient rest,
      ApiBudget budget,
      java.util.Optional<EloObjectDiscovery> discovery) {
    this.rest = rest;
    this.budget = budget;
    this.objects = new java.util.ArrayList<>(objects);
    this.discovery = discovery;
    this.poller = poller;
    this.metrics = metrics;
    this.ticker = ticker;
    this.jitter = jitter;
    this.resources = resources;
  }

  @Override
  public String name() {
    return SOURCE;
  }

  @Override
  public void run(SourceContext ctx) throws AuthException, InterruptedException {
    long[] due = new long[objects.size()];
    java.util.Arrays.fill(due, ticker.nanoTime());
    Duration authBackoff = Duration.ofSeconds(1);
    int finished = 0;
    long discoverAt = discovery.isPresent() ? ticker.nanoTime() : Long.MAX_VALUE;
    while (!ctx.stopRequested() && (!objects.isEmpty() || discoverAt != Long.MAX_VALUE)) {
      pace = pace();
      if (!pace.admits()) {
        if (ctx.awaitStop(pace.stretch(Duration.ZERO))) {
          return; // paused: nothing polled, every cursor stays
        }
        continue;
      }
      long now = ticker.nanoTime();
      if (discoverAt <= now) {
        int before = objects.size();
        discoverAt = discover(now);
        due = java.util.Arrays.copyOf(due, objects.size());
        java.util.Arrays.fill(due, before, objects.size(), now);
      }
      for (int i = 0; i < objects.size() && !ctx.stopRequested(); i++) {
        if (due[i] > now) {
          continue;
        }
        ObjectSpec spec = objects.get(i);
        try {
          ObjectPoller.Outcome outcome = poller.poll(spec, ctx);
          failures.remove(spec.name());
          authBackoff = Duration.ofSeconds(1);
          if (outcome == ObjectPoller.Outcome.FINISHED) {
            due[i] = Long.MAX_VALUE;
            if (++finished == objects.size() && discoverAt == Long.MAX_VALUE) {
              LOG.info("{}: every object was read up to the window's until; done", SOURCE);
              return;
            }
            continue;
          }
          due[i] = outcome == ObjectPoller.Outcome.CATCH_UP ? now : next(now, spec);
        } catch (ThrottledException e) {
          metrics.throttled("soql");
          LOG.error(
              "{}: Salesforce API limit reached ({}); deferring every due object by one interval",
              SOURCE,
              e.getMessage());
          deferDue(due, now);
          break;
        } catch (SalesforceApiException e) {
          failed(spec, e);
          due[i] = next(now, spec);
        } catch (AuthException e) {
          if (e.isPermanent()) {
            throw e; // no retry mints a token: the engine gives up after its attempts
          }
          LOG.warn(
              "{}: authentication failed ({}); retrying in {}",
              SOURCE,
              e.getMessage(),
              Durations.format(authBackoff));
          if (ctx.awaitStop(authBackoff)) {
            return;
          }
          authBackoff = min(authBackoff.multipliedBy(2), AUTH_BACKOFF_MAX);
          break;
        }
      }
      long wait = Math.min(nextDue(due), discoverAt) - ticker.nanoTime();
      if (wait > 0 && ctx.awaitStop(Duration.ofNanos(wait))) {
        return;
      }
    }
  }

  /**
   * Adds the Event Log Objects the org lists ({@link EloObjectDiscovery}); returns when to ask
   * again: never once they were listed, else after the section's poll interval (a failed call is a
   * WARN, Event Log Objects missing here were reported once).
   */
  private long discover(long now) throws AuthException, InterruptedException {
    EloObjectDiscovery d = discovery.orElseThrow();
    java.util.Set<String> listed = new java.util.HashSet<>();
    objects.forEach(o -> listed.add(o.name()));
    List<EloObjectDiscovery.Found> found;
    try {
      found = d.discover(listed);
    } catch (SalesforceApiException e) {
      metrics.pollError(EventLogObjectsConfig.DISCOVER_PRESET);
      LOG.warn(
          "{}: listing the org's Event Log Objects failed ({}); retrying in {}",
          SOURCE,
          e.getMessage(),
          Durations.format(d.retryInterval()));
      return now + d.retryInterval().toNanos();
    } catch (AuthException e) {
      if (e.isPermanent()) {
        throw e; // no retry mints a token: the engine gives up after its attempts
      }
      LOG.warn(
          "{}: listing the org's Event Log Objects: authentication failed ({}); retrying in {}",
          SOURCE,
          e.getMessage(),
          Durations.format(d.retryInterval()));
      return now + d.retryInterval().toNanos();
    }
    if (found.isEmpty() && !d.listed()) {
      return now + d.retryInterval().toNanos();
    }
    for (EloObjectDiscovery.Found f : found) {
      objects.add(f.spec());
      poller.knownFields(f.spec().name(), f.fields());
    }
    return Long.MAX_VALUE;
  }

  /** The budget's pace; a transient token failure is left to the polls, which back off from it. */
  private Pace pace() throws AuthException, InterruptedException {
    try {
      return budget.beforeCycle(rest);
    } catch (AuthException e) {
      if (e.isPermanent()) {
        throw e; // no retry mints a token: the engine gives up after its attempts
      }
      return new Pace.Normal();
    }
  }

  private void failed(ObjectSpec spec, SalesforceApiException e) {
    metrics.pollError(spec.name());
    int n = failures.merge(spec.name(), 1, Integer::sum);
    String hint = "";
    if (e instanceof ApiErrorException api
        && api.body().contains("BIG_OBJECT_UNSUPPORTED_OPERATION")) {
      hint = " (this is a big object: set big_object = true for it)";
    }
    if (n >= 3) {
      LOG.error(
          "{}: poll of {} failed {} times in a row: {}{}",
          SOURCE,
          spec.name(),
          n,
          e.getMessage(),
          hint);
    } else {
      LOG.warn("{}: poll of {} failed: {}{}", SOURCE, spec.name(), e.getMessage(), hint);
    }
  }

  private void deferDue(long[] due, long now) {
    for (int j = 0; j < due.length; j++) {
      if (due[j] <= now) {
        due[j] = next(now, objects.get(j));
      }
    }
  }

  private long next(long now, ObjectSpec spec) {
    // Jitter only shortens a gap (factor 0.9 to 1): poll_interval stays the longest one, so a row
    // is read within settle_window + poll_interval of its event, the freshness the docs promise.
    double factor = 1 - 0.1 * Math.min(1, Math.abs(jitter.getAsDouble()));
    return now + (long) (pace.stretch(spec.pollInterval()).toNanos() * factor);
  }

  private static long nextDue(long[] due) {
    long min = Long.MAX_VALUE;
    for (long d : due) {
      min = Math.min(min, d);
    }
    return min;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  @Override
  public void close() throws java.io.IOException {
    resources.close();
  }
}
