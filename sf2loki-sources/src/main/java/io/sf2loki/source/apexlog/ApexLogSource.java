package io.sf2loki.source.apexlog;

import io.sf2loki.config.Durations;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.Pace;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.source.eventlogobjects.ObjectCursor;
import io.sf2loki.source.eventlogobjects.ObjectMetrics;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists Apex debug logs every {@code poll_interval} (±10 %) and ships them in {@code (StartTime,
 * Id)} order. A throttle aborts the cycle; another listing error is a WARN (ERROR from the third in
 * a row) and {@code sf2loki_soql_poll_errors{source=apexlog,object=apexlog}}; an authentication
 * failure backs off 1 s → 30 s. A corrupt checkpoint is a WARN and restarts from {@code lookback}.
 */
public final class ApexLogSource implements Source, Closeable {

  static final String SOURCE = "apexlog";
  private static final Logger LOG = LoggerFactory.getLogger(ApexLogSource.class);

  private final ApexLogConfig config;
  private final ApexLogCycle cycle;
  private final ApexLogBodies bodies;
  private final ObjectMetrics metrics;
  private final Supplier<Instant> salesforceNow;
  private final DoubleSupplier jitter;
  private final Closeable resources;
  private final ApiBudget budget;
  private final SalesforceRestClient rest;
  private ObjectCursor cursor;
  private int failures;

  ApexLogSource(
      ApexLogConfig config,
      ApexLogCycle cycle,
      ApexLogBodies bodies,
      ObjectMetrics metrics,
      Supplier<Instant> salesforceNow,
      DoubleSupplier jitter,
      Closeable resources,
      SalesforceRestClient rest,
      ApiBudget budget) {
    this.rest = rest;
    this.budget = budget;
    this.config = config;
    this.cycle = cycle;
    this.bodies = bodies;
    this.metrics = metrics;
    this.salesforceNow = salesforceNow;
    this.jitter = jitter;
    this.resources = resources;
  }

  @Override
  public String name() {
    return SOURCE;
  }

  @Override
  public void run(SourceContext ctx) throws AuthException, InterruptedException {
    if (cursor == null) {
      cursor = load(ctx);
    }
    Duration authBackoff = Duration.ofSeconds(1);
    while (!ctx.stopRequested()) {
      Duration wait = interval();
      try {
        Pace pace = budget.beforeCycle(rest);
        wait = pace.stretch(wait);
        if (pace.admits()) {
          cycle.run(cursor, ctx); // paused: skipped, the cursor stays
        }
        failures = 0;
        authBackoff = Duration.ofSeconds(1);
      } catch (ThrottledException e) {
        metrics.throttled(bodies.consumeBodyThrottle() ? "apexlog_body" : "soql");
        LOG.error(
            "apexlog: Salesforce API limit reached ({}); skipping this cycle", e.getMessage());
      } catch (SalesforceApiException e) {
        metrics.pollError(SOURCE);
        failures++;
        if (failures >= 3) {
          LOG.error("apexlog: listing failed {} times in a row: {}", failures, e.getMessage());
        } else {
          LOG.warn("apexlog: listing failed: {}", e.getMessage());
        }
      } catch (AuthException e) {
        if (e.isPermanent()) {
          throw e; // no retry mints a token: the engine gives up after its attempts
        }
        LOG.warn(
            "apexlog: authentication failed ({}); retrying in {}",
            e.getMessage(),
            Durations.format(authBackoff));
        wait = authBackoff;
        authBackoff =
            authBackoff.multipliedBy(2).compareTo(Duration.ofSeconds(30)) > 0
                ? Duration.ofSeconds(30)
                : authBackoff.multipliedBy(2);
      }
      if (ctx.awaitStop(wait)) {
        return;
      }
    }
  }

  private Duration interval() {
    double factor = 1 + 0.1 * Math.max(-1, Math.min(1, jitter.getAsDouble()));
    return Duration.ofNanos((long) (config.pollInterval().toNanos() * factor));
  }

  private ObjectCursor load(SourceContext ctx) {
    Optional<String> stored = ctx.checkpoint(ApexLogCycle.KEY);
    if (stored.isPresent()) {
      try {
        return ObjectCursor.decode(stored.get());
      } catch (IllegalArgumentException e) {
        metrics.checkpointLoadError();
        LOG.warn(
            "apexlog: stored checkpoint is corrupt ({}); starting {} back",
            e.getMessage(),
            Durations.format(config.lookback()));
      }
    }
    return ObjectCursor.startingAt(
        salesforceNow.get().minus(config.lookback()).truncatedTo(ChronoUnit.SECONDS));
  }

  @Override
  public void close() throws IOException {
    resources.close();
  }
}
