package io.sf2loki.engine;

import io.sf2loki.config.Durations;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's answer to a failed campaign or term: classify it, count it ({@code
 * sf2loki_engine_failures{kind,reason}}), log one line, and either wait the streak's next backoff
 * or end the engine. A stack trace is logged only for an {@link FailureClass#UNEXPECTED} failure,
 * once per streak (at DEBUG otherwise), so a repeating failure is a line per attempt, not a trace.
 * It watches the engine's status to tell how long each term led: a long one ends the streak.
 */
final class FailureResponse {

  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** What the engine does next. */
  sealed interface Reaction {}

  /** Back off: show {@code status} and wait its pause. */
  record Wait(EngineStatus.BackingOff status) implements Reaction {}

  /** End the engine with {@code outcome}. */
  record End(EngineOutcome.Failed outcome) implements Reaction {}

  private final FailureClassifier classifier;
  private final FailureStreak streak;
  private final EngineMetrics metrics;
  private final Ticker ticker;
  private long leadingSince;
  private boolean leading;

  FailureResponse(
      FailureClassifier classifier, FailureStreak streak, EngineMetrics metrics, Ticker ticker) {
    this.classifier = classifier;
    this.streak = streak;
    this.metrics = metrics;
    this.ticker = ticker;
  }

  /** The engine's status changed: a term started or ended. */
  synchronized void observe(EngineStatus next) {
    long now = ticker.nanoTime();
    if (next instanceof EngineStatus.Leading) {
      leading = true;
      leadingSince = now;
    } else if (leading) {
      leading = false;
      streak.termEnded(Duration.ofNanos(now - leadingSince));
    }
  }

  /** Answers {@code failure}. */
  synchronized Reaction to(Throwable failure) {
    FailureClass failed = classifier.classify(failure);
    metrics.failed(failed);
    FailureStreak.Next next = streak.failed(failed);
    if (next instanceof FailureStreak.GiveUp giveUp) {
      LOG.debug("giving up after {} attempts", giveUp.attempts(), failure);
      return new End(new EngineOutcome.Failed(failed, giveUp.attempts(), failure));
    }
    FailureStreak.BackOff backOff = (FailureStreak.BackOff) next;
    String where = failed.resource().isBlank() ? "" : " at " + failed.resource();
    String count =
        failed.isPermanent()
            ? "permanent, attempt " + backOff.attempt() + " of " + streak.permanentAttempts()
            : "transient, failure " + backOff.failures() + " in a row";
    String what = failure.getMessage() == null ? failure.toString() : failure.getMessage();
    String line =
        failed.reason()
            + where
            + " ("
            + count
            + "): "
            + what
            + "; campaigning again in "
            + Durations.format(backOff.pause());
    if (FailureClass.UNEXPECTED.equals(failed.reason()) && backOff.failures() == 1) {
      LOG.warn(line, failure);
    } else {
      LOG.warn(line);
      LOG.debug("the failure's stack trace", failure);
    }
    return new Wait(new EngineStatus.BackingOff(failed, backOff.failures(), backOff.pause()));
  }
}
