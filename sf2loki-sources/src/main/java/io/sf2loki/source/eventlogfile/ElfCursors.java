package io.sf2loki.source.eventlogfile;

import io.sf2loki.config.Durations;
import io.sf2loki.salesforce.rest.ServerClock;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.source.window.TimeWindow;
import io.sf2loki.spi.SourceContext;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-type cursors of one run: loaded once from the committed checkpoint, then kept in memory
 * as files are processed (the committed value lags behind what was queued). Alongside each cursor
 * it keeps the value the last queued token carried, so the end of a type's cycle knows whether an
 * advance still has to ride on a checkpoint-only token (salesforce-api.md §7.4). A corrupt stored
 * value is a WARN plus {@code sf2loki_checkpoint_load_errors{source=eventlogfile}} and the
 * lookback. With a window {@code start} the first run starts there instead of at the lookback, and
 * a stored cursor behind it moves up to it; a stored cursor at or after the window's {@code until}
 * is another window's progress and is not resumed from ({@link TimeWindow#place}).
 */
final class ElfCursors {

  private static final Logger LOG = LoggerFactory.getLogger(ElfCursors.class);

  /** Above this many (id, CreatedDate) pairs a checkpoint is logged at WARN (once per crossing). */
  static final int WARN_PAIRS = 5000;

  private final Map<String, ElfCheckpoint> cursors = new ConcurrentHashMap<>();
  private final Map<String, String> carried = new ConcurrentHashMap<>();
  private final Duration lookback;
  private final TimeWindow window;
  private final ServerClock serverClock;
  private final ElfMetrics metrics;

  ElfCursors(Duration lookback, TimeWindow window, ServerClock serverClock, ElfMetrics metrics) {
    this.lookback = lookback;
    this.window = window;
    this.serverClock = serverClock;
    this.metrics = metrics;
  }

  /** The checkpoint key of {@code type}. */
  static String key(String type) {
    return "eventlogfile:" + type;
  }

  ElfCheckpoint current(String type, SourceContext ctx) {
    return cursors.computeIfAbsent(
        type,
        t -> {
          ElfCheckpoint loaded = load(t, ctx);
          carried.put(t, loaded.format()); // stored already, or the lookback: nothing to carry
          return loaded;
        });
  }

  /** Moves the in-memory cursor; no token carries it yet. */
  void update(String type, ElfCheckpoint cursor) {
    ElfCheckpoint previous = cursors.put(type, cursor);
    if (cursor.seen().size() > WARN_PAIRS
        && (previous == null || previous.seen().size() <= WARN_PAIRS)) {
      LOG.warn(
          "checkpoint {} holds {} file ids (more than {}): many files share the watermark date or"
              + " many zero-row files wait behind it",
          key(type),
          cursor.seen().size(),
          WARN_PAIRS);
    }
  }

  /** Records that a queued entry carries {@code cursor}. */
  void carried(String type, ElfCheckpoint cursor) {
    carried.put(type, cursor.format());
  }

  /** The cursor when no queued entry carries it yet, else empty. */
  Optional<ElfCheckpoint> uncarried(String type) {
    ElfCheckpoint cursor = cursors.get(type);
    if (cursor == null || cursor.format().equals(carried.get(type))) {
      return Optional.empty();
    }
    return Optional.of(cursor);
  }

  private ElfCheckpoint load(String type, SourceContext ctx) {
    Optional<String> stored = ctx.checkpoint(key(type));
    if (stored.isPresent()) {
      try {
        return inWindow(type, ElfCheckpoint.parse(stored.get()));
      } catch (IllegalArgumentException e) {
        metrics.checkpointLoadError();
        LOG.warn(
            "checkpoint {} is corrupt ({}); starting from {}",
            key(type),
            e.getMessage(),
            window
                .start()
                .map(s -> "the window start " + s)
                .orElse("the " + Durations.format(lookback) + " lookback"));
      }
    }
    return ElfCheckpoint.initial(Soql.datetimeLiteral(initialFrom()));
  }

  /** The stored cursor when it lies inside the window, else where the window starts. */
  private ElfCheckpoint inWindow(String type, ElfCheckpoint cursor) {
    return switch (window.place(cursor.watermark())) {
      case INSIDE -> cursor;
      case BEFORE_START -> {
        LOG.info(
            "checkpoint {} ({}) is behind the window start {}: starting there",
            key(type),
            cursor.lastCreated(),
            window.start().orElseThrow());
        yield ElfCheckpoint.initial(Soql.datetimeLiteral(initialFrom()));
      }
      case AT_OR_AFTER_UNTIL -> {
        LOG.warn(
            "checkpoint {} ({}) is at or after the window's until {}, where reading the window"
                + " never gets: it is not this window's progress, so the window is read from {}",
            key(type),
            cursor.lastCreated(),
            window.until().orElseThrow(),
            initialFrom());
        yield ElfCheckpoint.initial(Soql.datetimeLiteral(initialFrom()));
      }
    };
  }

  /**
   * Where a type without a stored cursor starts: the window's start, else now - lookback on
   * Salesforce's clock, in whole seconds.
   */
  Instant initialFrom() {
    return window
        .start()
        .orElseGet(() -> serverClock.now().minus(lookback).truncatedTo(ChronoUnit.SECONDS));
  }
}
