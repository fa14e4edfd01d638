package io.sf2loki.source.eventlogfile;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.spi.SourceContext;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cycle of the source: resolve the types ({@link ElfTypes}), list them all with one query
 * ({@link ElfListing}), and hand each type's files to {@link ElfTypeCycle}, up to {@code
 * concurrency} types in parallel, round after round until the listing is exhausted. A type that
 * stops (settle window, failed download, stop, throttle) is not handed further rounds this cycle,
 * so its files stay in order. A throttled listing or download stops the cycle; a failed listing
 * ends it after the files listed before the failure (every type then waits for the next cycle).
 * Anything else a type worker throws (an {@link Error}, a bug) ends the source's run once the other
 * types stopped.
 */
final class ElfCycle {

  private static final Logger LOG = LoggerFactory.getLogger(ElfCycle.class);
  static final String LISTING = "listing";

  private final EventLogFileConfig config;
  private final SalesforceRestClient rest;
  private final ElfTypes types;
  private final ElfCursors cursors;
  private final ElfTypeCycle typeCycle;
  private final ElfMetrics metrics;
  private final Escalation escalation;

  ElfCycle(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ElfTypes types,
      ElfCursors cursors,
      ElfTypeCycle typeCycle,
      ElfMetrics metrics,
      Escalation escalation) {
    this.config = config;
    this.rest = rest;
    this.types = types;
    this.cursors = cursors;
    this.typeCycle = typeCycle;
    this.metrics = metrics;
    this.escalation = escalation;
  }

  /**
   * Runs the cycle; returns when each type finished or stopped: true when every type read all the
   * listing holds for it (and no discovery failed or new type waits for the next cycle).
   */
  boolean run(SourceContext ctx, ExecutorService workers)
      throws AuthException, InterruptedException {
    Optional<List<String>> read = types.resolve();
    if (read.isEmpty()) {
      return false; // discovery throttled: the whole cycle is skipped
    }
    ElfListing listing = new ElfListing(config, rest, types, read.get(), cursors, ctx);
    AtomicBoolean throttled = new AtomicBoolean();
    Set<String> stopped = new HashSet<>();
    boolean allDone = true;
    while (!listing.exhausted() && !throttled.get() && !ctx.stopRequested()) {
      ElfListing.Round round;
      try {
        round = listing.next();
      } catch (ThrottledException e) {
        metrics.throttled("soql");
        LOG.error("EventLogFile listing throttled; the cycle stops: {}", e.getMessage());
        return false;
      }
      Map<String, List<ElfFile>> work = new LinkedHashMap<>(round.files());
      work.keySet().removeAll(stopped);
      for (Map.Entry<String, ElfTypeCycle.Outcome> o : runTypes(work, ctx, throttled, workers)) {
        if (o.getValue() != ElfTypeCycle.Outcome.DONE) {
          stopped.add(o.getKey());
          allDone = false;
        }
      }
      if (round.failure().isPresent()) {
        listingFailed(round.failure().get());
        return false;
      }
      escalation.succeeded(LISTING);
      if (!types.listsUnknown() && stopped.containsAll(read.get())) {
        break; // no type would take the next round's files
      }
    }
    return allDone
        && listing.exhausted()
        && listing.deferred().isEmpty()
        && !throttled.get()
        && !types.discoveryFailing();
  }

  private void listingFailed(SalesforceApiException e) {
    metrics.pollError(LISTING);
    metrics.downloadError(LISTING);
    escalation.failed(
        LISTING, "EventLogFile listing failed; every event type waits for the next cycle", e);
  }

  /**
   * Runs each type's files on the workers; every outcome, once all returned. An authentication
   * failure is rethrown after the other types stopped, as is an unexpected one.
   */
  private Set<Map.Entry<String, ElfTypeCycle.Outcome>> runTypes(
      Map<String, List<ElfFile>> work,
      SourceContext ctx,
      AtomicBoolean throttled,
      ExecutorService workers)
      throws AuthException, InterruptedException {
    Map<String, Future<ElfTypeCycle.Outcome>> running = new LinkedHashMap<>();
    work.forEach(
        (type, files) ->
            running.put(type, workers.submit(() -> typeCycle.run(type, files, ctx, throttled))));
    Map<String, ElfTypeCycle.Outcome> outcomes = new LinkedHashMap<>();
    AuthException authFailure = null;
    Throwable unexpected = null;
    boolean aborted = false;
    try {
      for (Map.Entry<String, Future<ElfTypeCycle.Outcome>> f : running.entrySet()) {
        try {
          outcomes.put(f.getKey(), f.getValue().get());
        } catch (ExecutionException e) {
          throttled.set(true); // stop the other types early; nothing can be fetched
          outcomes.put(f.getKey(), ElfTypeCycle.Outcome.STOPPED);
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
      running.values().forEach(f -> f.cancel(true));
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
    return outcomes.entrySet();
  }
}
