package io.sf2loki.source.eventlogfile;

import io.sf2loki.config.Durations;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.Pace;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.salesforce.soql.Condition;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.salesforce.soql.SoqlQuery;
import io.sf2loki.shape.Categories;
import io.sf2loki.spi.CategoryOwnership;
import io.sf2loki.spi.Causes;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EventLogFile source. Each cycle resolves the event types (explicit ones plus, with {@code *},
 * the org's discovered types, minus the categories another source owns), runs up to {@code
 * concurrency} types in parallel through {@link ElfTypeCycle}, then waits {@code poll_interval}. A
 * throttle stops the cycle; an authentication failure backs off from 1 s to 30 s and retries; every
 * other expected failure (API, transport, CSV) is contained to its type and retried next cycle, and
 * anything else a type worker throws (an {@link Error}, a bug) ends the source's run once the other
 * types stopped. With a window {@code until} ({@link ElfWindow}) the run is finite: it returns
 * after the first cycle in which every type was read to the bound, once the bound is not ahead of
 * Salesforce's clock; a type that failed, throttled or waits on a settling file keeps it polling.
 * Never stores checkpoints itself: they ride on the entries (invariant 1).
 */
public final class EventLogFileSource implements Source {

  private static final Logger LOG = LoggerFactory.getLogger(EventLogFileSource.class);
  private static final Duration AUTH_BACKOFF_START = Duration.ofSeconds(1);
  private static final Duration AUTH_BACKOFF_MAX = Duration.ofSeconds(30);

  private final EventLogFileConfig config;
  private final SalesforceRestClient rest;
  private final ElfTypeCycle typeCycle;
  private final ElfMetrics metrics;
  private final Ticker ticker;
  private final ThreadFactory threads;
  private final Escalation escalation;
  private final CategoryOwnership ownership;
  private final AutoCloseable resources;
  private final ApiBudget budget;

  EventLogFileSource(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ElfTypeCycle typeCycle,
      ElfMetrics metrics,
      Ticker ticker,
      ThreadFactory threads,
      Escalation escalation,
      CategoryOwnership ownership,
      AutoCloseable resources,
      ApiBudget budget) {
    this.budget = budget;
    this.config = config;
    this.rest = rest;
    this.typeCycle = typeCycle;
    this.metrics = metrics;
    this.ticker = ticker;
    this.threads = threads;
    this.escalation = escalation;
    this.ownership = ownership;
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

  /** One cycle on its own worker pool (tests and one-shot callers). */
  void cycleOnce(SourceContext ctx) throws AuthException, InterruptedException {
    ExecutorService workers = newWorkers();
    try {
      cycle(ctx, workers);
    } finally {
      workers.shutdownNow();
    }
  }

  /**
   * One cycle over every type; returns when each type finished or stopped: true when every type
   * read all it listed ({@link ElfTypeCycle.Outcome#DONE}).
   */
  boolean cycle(SourceContext ctx, ExecutorService workers)
      throws AuthException, InterruptedException {
    Optional<List<String>> types = resolveTypes();
    if (types.isEmpty()) {
      return false; // discovery throttled: the whole cycle is skipped
    }
    AtomicBoolean throttled = new AtomicBoolean();
    List<Future<ElfTypeCycle.Outcome>> running = new ArrayList<>();
    for (String type : types.get()) {
      running.add(workers.submit(() -> typeCycle.run(type, ctx, throttled)));
    }
    AuthException authFailure = null;
    Throwable unexpected = null;
    boolean aborted = false;
    boolean complete = true;
    try {
      for (Future<ElfTypeCycle.Outcome> f : running) {
        try {
          complete &= f.get() == ElfTypeCycle.Outcome.DONE;
        } catch (ExecutionException e) {
          throttled.set(true); // stop the other types early; nothing can be fetched
          complete = false;
          if (e.getCause() instanceof AuthException a) {
            authFailure = a;
          } else if (e.getCause() instanceof InterruptedException) {
            aborted = true; // the lane was torn down under the worker's emit
          } else if (unexpected == null) {
            unexpected = e.getCause();
          }
        }
      }
    } catch (InterruptedException e) {
      running.forEach(f -> f.cancel(true));
      throw e;
    }
    // A type worker's unexpected failure (an Error, a bug) ends the source's run, so the term ends
    // as a failure; every expected one is contained to its type by ElfTypeCycle.
    if (unexpected instanceof Error error) {
      throw error;
    }
    if (unexpected instanceof RuntimeException e) {
      throw e;
    }
    if (unexpected != null) {
      throw new IllegalStateException("EventLogFile type worker failed: " + unexpected, unexpected);
    }
    if (aborted) {
      throw new InterruptedException("the lane was aborted under an EventLogFile type worker");
    }
    if (authFailure != null) {
      throw authFailure;
    }
    return complete && !escalation.failing("discovery"); // a failed discovery missed types
  }

  /**
   * Explicit types plus, with {@code *}, the discovered ones whose category no other source owns
   * ({@link CategoryOwnership}); empty when discovery throttled.
   */
  Optional<List<String>> resolveTypes() throws AuthException, InterruptedException {
    Set<String> types = new LinkedHashSet<>(config.explicitTypes());
    if (config.discovers()) {
      try {
        types.addAll(discover());
        escalation.succeeded("discovery");
      } catch (ThrottledException e) {
        metrics.throttled("soql");
        LOG.error("EventLogFile type discovery throttled; skipping this cycle");
        return Optional.empty();
      } catch (SalesforceApiException e) {
        metrics.pollError("discovery");
        escalation.failed(
            "discovery", "EventLogFile type discovery failed; only explicit types run", e);
      }
    }
    return Optional.of(List.copyOf(types));
  }

  private Set<String> discover()
      throws SalesforceApiException, AuthException, InterruptedException {
    String soql =
        SoqlQuery.select("EventType")
            .from("EventLogFile")
            .where(Condition.equalTo("Interval", Soql.intervalLiteral(config.interval())))
            .groupBy("EventType")
            .build();
    Set<String> found = new TreeSet<>();
    for (String t : rest.query(soql).texts("EventType")) {
      if (!t.matches("[A-Za-z0-9_]+")) {
        if (!t.isBlank()) {
          LOG.warn("EventLogFile discovery returned an unusable event type; skipped");
        }
      } else if (config.explicitTypes().contains(t)
          || ownership.mayIngestDiscovered(name(), Categories.ofElfType(t))) {
        found.add(t);
      }
    }
    return found;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
