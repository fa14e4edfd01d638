package io.sf2loki.source.eventlogobjects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.config.Durations;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.source.window.TimeWindow;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One poll cycle of one object: the ascending keyset path, or the newest-first drain for big
 * objects, below the window's {@code until} when it has one. Keeps each object's cursor in memory
 * after the first load (the committed checkpoint lags behind what was emitted); the window's {@code
 * start} is where a first run starts, a stored cursor behind it moves up to it, and one at or after
 * its {@code until} is another window's progress and is not resumed from ({@link
 * TimeWindow#place}). Confined to the source thread.
 */
final class ObjectPoller {

  private static final Logger LOG = LoggerFactory.getLogger(ObjectPoller.class);

  /** How a cycle ended. */
  enum Outcome {
    /** Caught up (a short page, or the drain reached the watermark). */
    DONE,
    /** The catch-up cap was hit: newer rows wait, poll again at once. */
    CATCH_UP,
    /** No progress possible at the boundary. */
    STALLED,
    /**
     * Caught up to the window's {@code until}, which the poll read settled rows up to: nothing is
     * left to read.
     */
    FINISHED
  }

  private final SalesforceRestClient rest;
  private final ObjectEmitter emitter;
  private final ObjectMetrics metrics;
  private final long maxCatchup;
  private final Supplier<Instant> salesforceNow;
  private final TimeWindow window;
  private final Map<String, ObjectCursor> cursors = new HashMap<>();
  private final Map<String, String> stalls = new HashMap<>();
  private final EloPoll elo;

  ObjectPoller(
      SalesforceRestClient rest,
      ObjectEmitter emitter,
      ObjectMetrics metrics,
      long maxCatchup,
      Supplier<Instant> salesforceNow,
      TimeWindow window) {
    this.window = window;
    this.rest = rest;
    this.emitter = emitter;
    this.metrics = metrics;
    this.maxCatchup = maxCatchup;
    this.salesforceNow = salesforceNow;
    this.elo = new EloPoll(rest, emitter, salesforceNow, window);
  }

  /** Records a discovered Event Log Object's fields, so its first poll needs no describe. */
  void knownFields(String object, List<String> fields) {
    elo.knownFields(object, fields);
  }

  Outcome poll(ObjectSpec spec, SourceContext ctx)
      throws SalesforceApiException, AuthException, InterruptedException {
    if (EloPoll.isEventLogObject(spec.name())) {
      return elo.poll(spec, ctx);
    }
    ObjectCursor cursor = cursors.computeIfAbsent(spec.name(), n -> load(spec, ctx::checkpoint));
    Instant now = salesforceNow.get();
    Optional<Instant> settle = settleBound(spec, now);
    ObjectQueries soql = new ObjectQueries(spec, settle, window.until());
    Outcome outcome =
        spec.bigObject() ? drain(spec, soql, cursor, ctx) : ascend(spec, soql, cursor, ctx);
    boolean readToUntil = window.untilReachedBy(settle.orElse(now));
    return outcome == Outcome.DONE && readToUntil && !ctx.stopRequested()
        ? Outcome.FINISHED
        : outcome;
  }

  private Outcome ascend(
      ObjectSpec spec, ObjectQueries soql, ObjectCursor cursor, SourceContext ctx)
      throws SalesforceApiException, AuthException, InterruptedException {
    while (!ctx.stopRequested()) {
      List<ObjectNode> page =
          rest.query(soql.ascending(cursor.watermark(), cursor.lastId())).records();
      int fresh = emitter.emit(spec, page, cursor, ctx);
      if (page.size() < ObjectQueries.PAGE) {
        stalls.remove(spec.name());
        return Outcome.DONE;
      }
      if (fresh == 0) {
        return stalled(
            spec, cursor.lastTs() + "/" + cursor.lastId().orElse(""), "a full page had no new id");
      }
    }
    return Outcome.DONE;
  }

  private Outcome drain(ObjectSpec spec, ObjectQueries soql, ObjectCursor cursor, SourceContext ctx)
      throws SalesforceApiException, AuthException, InterruptedException {
    BigObjectDrain drain =
        new BigObjectDrain(
            soql,
            spec.timestampField(),
            q -> rest.query(q).records(),
            maxCatchup,
            ctx::stopRequested,
            cursor::seen);
    BigObjectDrain.Result result = drain.run(cursor.watermark());
    if (result instanceof BigObjectDrain.Stalled s) {
      return stalled(spec, s.boundary(), s.why());
    }
    if (!(result instanceof BigObjectDrain.Complete complete)) {
      return Outcome.DONE; // stopped: nothing emitted, nothing committed
    }
    stalls.remove(spec.name());
    List<ObjectNode> rows = complete.rows();
    for (int from = 0; from < rows.size(); from += ObjectQueries.PAGE) {
      emitter.emit(
          spec, rows.subList(from, Math.min(rows.size(), from + ObjectQueries.PAGE)), cursor, ctx);
    }
    if (complete.capped()) {
      LOG.info(
          "{}: drain kept the oldest {} rows (max_catchup_records); newer rows follow next cycle",
          spec.name(),
          rows.size());
      return Outcome.CATCH_UP;
    }
    return Outcome.DONE;
  }

  private Outcome stalled(ObjectSpec spec, String boundary, String why) {
    String previous = stalls.put(spec.name(), boundary);
    if (boundary.equals(previous)) {
      metrics.stall(spec.name());
      LOG.error(
          "{}: watermark stalled again at {} ({}); more rows share one position than a page holds."
              + " Move the cursor with `state set` once the cause is understood",
          spec.name(),
          boundary,
          why);
    } else {
      LOG.warn("{}: no progress at {} ({}); retrying next cycle", spec.name(), boundary, why);
    }
    return Outcome.STALLED;
  }

  /** The cursor a run resumes {@code spec} from, given the committed {@code checkpoints}. */
  ObjectCursor load(ObjectSpec spec, Function<String, Optional<String>> checkpoints) {
    Optional<String> stored = checkpoints.apply(spec.checkpointKey());
    if (stored.isPresent()) {
      try {
        return inWindow(spec, ObjectCursor.decode(stored.get()));
      } catch (IllegalArgumentException e) {
        metrics.checkpointLoadError();
        LOG.warn(
            "{}: stored checkpoint {} is corrupt ({}); starting {}",
            spec.name(),
            spec.checkpointKey(),
            e.getMessage(),
            window
                .start()
                .map(s -> "at the window start " + s)
                .orElse(Durations.format(spec.lookback()) + " back"));
      }
    }
    return ObjectCursor.startingAt(initialFrom(spec));
  }

  /** The stored cursor when it lies inside the window, else a fresh one where the window starts. */
  private ObjectCursor inWindow(ObjectSpec spec, ObjectCursor cursor) {
    return switch (window.place(cursor.watermark())) {
      case INSIDE -> cursor;
      case BEFORE_START -> {
        LOG.info(
            "{}: stored checkpoint {} ({}) is behind the window start {}: starting there",
            spec.name(),
            spec.checkpointKey(),
            cursor.lastTs(),
            window.start().orElseThrow());
        yield ObjectCursor.startingAt(initialFrom(spec));
      }
      case AT_OR_AFTER_UNTIL -> {
        LOG.warn(
            "{}: stored checkpoint {} ({}) is at or after the window's until {}, where reading the"
                + " window never gets: it is not this window's progress, so the window is read"
                + " from {}",
            spec.name(),
            spec.checkpointKey(),
            cursor.lastTs(),
            window.until().orElseThrow(),
            initialFrom(spec));
        yield ObjectCursor.startingAt(initialFrom(spec));
      }
    };
  }

  /** Where an object without a usable cursor starts: the window's start, else the lookback. */
  private Instant initialFrom(ObjectSpec spec) {
    return window
        .start()
        .orElseGet(
            () -> salesforceNow.get().minus(spec.lookback()).truncatedTo(ChronoUnit.SECONDS));
  }

  private static Optional<Instant> settleBound(ObjectSpec spec, Instant now) {
    Duration settle = spec.settleWindow();
    return settle.isZero()
        ? Optional.empty()
        : Optional.of(now.minus(settle).truncatedTo(ChronoUnit.MILLIS));
  }
}
