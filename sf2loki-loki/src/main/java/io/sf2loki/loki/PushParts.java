package io.sf2loki.loki;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.config.Durations;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.RetryableSinkException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link BatchPush} works with: the planner, its policies and their texts, and the sink's
 * wire. The Loki sink pushes to Loki's push API ({@link LokiSink.Parts}); the OTLP sink exports to
 * a Loki's OTLP endpoint ({@link OtlpWindows}). Both reach the same Loki distributor and ingester,
 * so the same planning, lessons and per-stream pushes apply; only the body and its answer differ.
 *
 * @param <B> an encoded request body
 */
abstract class PushParts<B> {

  private static final Logger LOG = LoggerFactory.getLogger(LokiSink.class);
  private static final Duration HOLD_WARN_EVERY = Duration.ofMinutes(10);

  /**
   * One final answer to one request: accepted (stored), or refused for entries the push bisects
   * down to (a retryable answer is thrown instead).
   *
   * @param status the HTTP status
   * @param accepted whether every entry of the request was stored
   * @param dropReason the {@code reason} of an entry refused alone for no time rule ({@code
   *     bad_request}, {@code oversized_413}, ...)
   * @param body the answer's text (Loki's reasons)
   */
  record Answer(int status, boolean accepted, String dropReason, String body) {}

  private final WindowPlanner planner;
  private final Clock clock;
  private final TimeWindowConfig windows;
  private final String section;
  private final Sleeper sleeper;
  private final MeterRegistry registry;
  private final AtomicReference<Instant> lastHoldWarning;

  /**
   * @param section the config section of the window keys, named in texts ({@code sink.loki})
   * @param sleeper how a held push waits
   * @param lastHoldWarning when a hold was last logged, shared by the sink's pushes
   */
  PushParts(
      WindowPlanner planner,
      Clock clock,
      TimeWindowConfig windows,
      String section,
      Sleeper sleeper,
      MeterRegistry registry,
      AtomicReference<Instant> lastHoldWarning) {
    this.planner = planner;
    this.clock = clock;
    this.windows = windows;
    this.section = section;
    this.sleeper = sleeper;
    this.registry = registry;
    this.lastHoldWarning = lastHoldWarning;
  }

  final WindowPlanner planner() {
    return planner;
  }

  final Clock clock() {
    return clock;
  }

  final TimeWindowConfig windows() {
    return windows;
  }

  /** Where a replay's entries were pushed before; {@link PlacementLedger#NONE} unless replaying. */
  PlacementLedger ledger() {
    return PlacementLedger.NONE;
  }

  /** Whether pushes are recorded in a {@link PlacementLedger} ({@code deadletter replay}). */
  final boolean replaying() {
    return ledger() != PlacementLedger.NONE;
  }

  abstract B encode(List<LogEntry> entries) throws RetryableSinkException;

  /** One attempt: the final answer, or a retryable failure. */
  abstract Answer send(B body) throws RetryableSinkException, InterruptedException;

  /** {@code body} was accepted (counts its bytes). */
  abstract void accepted(B body);

  /** The redacted endpoint, for the log. */
  abstract String target();

  /**
   * Appends to the dead-letter file, when there is one. A failure is counted and logged, never
   * swallowed; the entry stays dropped (and counted as such): Loki refused it for good.
   */
  abstract void deadLetter(LogEntry e, String reason, int status, String error);

  /** Counts a deliberate drop (the one {@code sf2loki_loki_entries_dropped} family). */
  final void dropped(LogEntry original, String reason) {
    io.sf2loki.pipeline.PipelineMetrics.dropped(registry, original, reason);
  }

  /** Counts an entry handled by a time-window policy, once delivered or dropped. */
  final void outOfWindow(LogEntry original, WindowPlan.Reason reason, WindowPlan.Action action) {
    LokiMetrics.outOfWindow(registry, original, reason, action);
  }

  /** Counts a 400 that named a time rule. */
  final void windowRejection(WindowPlan.Reason reason) {
    LokiMetrics.windowRejection(registry, reason);
  }

  /** Waits until the held entries of {@code plan} are within Loki's grace. */
  final void hold(WindowPlan plan) throws InterruptedException {
    Instant now = clock.instant();
    Duration wait = Duration.ofNanos(plan.holdUntilNanos() - WindowPlanner.nanos(now));
    if (wait.isNegative() || wait.isZero()) {
      return;
    }
    if (Duration.between(lastHoldWarning.get(), now).compareTo(HOLD_WARN_EVERY) >= 0) {
      lastHoldWarning.set(now);
      LOG.warn(
          "holding a push to {} back for {}s: entries are stamped more than"
              + " {}.creation_grace_period ({}) ahead of this host's clock, which Loki"
              + " would reject as too far in the future; is this host's clock behind"
              + " Salesforce's? (logged at most every {} minutes)",
          target(),
          wait.toSeconds(),
          section,
          Durations.format(windows.creationGracePeriod()),
          HOLD_WARN_EVERY.toMinutes());
    }
    sleeper.sleep(wait);
  }

  /** Why {@code p} was placed as it was, one clause for the log and the dead-letter file. */
  final String explain(WindowPlan.Placement p) {
    TimeWindowConfig w = windows;
    String rule =
        switch (p.reason()) {
          case TOO_FAR_BEHIND ->
              "more than "
                  + section
                  + ".out_of_order_window ("
                  + Durations.format(w.outOfOrderWindow())
                  + ") behind the newest entry of their stream";
          case TOO_OLD ->
              "older than "
                  + section
                  + ".max_age ("
                  + Durations.format(w.maxAge())
                  + ") less one hour";
          case TOO_FAR_IN_FUTURE ->
              "more than "
                  + section
                  + ".creation_grace_period ("
                  + Durations.format(w.creationGracePeriod())
                  + ") ahead of this host's clock";
        };
    return switch (p.action()) {
      case ROUTED -> rule + "; pushed in time order into a stream of their own";
      case RETIMESTAMPED ->
          rule
              + "; stamped "
              + WindowPlanner.eventTime(p.placed().timestampNanos())
              + ", the event time kept in structured metadata "
              + TimeWindowConfig.EVENT_TIME_KEY;
      case HELD -> rule + "; the push waited until Loki accepts them";
      case UNCONFIRMED -> unconfirmed(p, w);
      case DROPPED ->
          rule
              + "; dropped by "
              + section
              + "."
              + (p.reason() == WindowPlan.Reason.TOO_FAR_IN_FUTURE
                  ? "future_policy"
                  : "late_policy")
              + " = drop";
    };
  }

  private String unconfirmed(WindowPlan.Placement p, TimeWindowConfig w) {
    String rule =
        p.reason() == WindowPlan.Reason.TOO_OLD
            ? "older than " + section + ".max_age (" + Durations.format(w.maxAge()) + ")"
            : "more than "
                + section
                + ".out_of_order_window ("
                + Durations.format(w.outOfOrderWindow())
                + ") behind the newest entry of that stream";
    return "an earlier replay pushed them stamped "
        + WindowPlanner.eventTime(p.placed().timestampNanos())
        + " into "
        + LokiStream.selector(planner.streams().of(p.placed()))
        + ", which is now "
        + rule
        + "; that push may have stored them (its answer was never recorded), so they are not"
        + " placed anew: check whether Loki holds them";
  }
}
