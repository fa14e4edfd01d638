package io.sf2loki.loki;

import io.sf2loki.loki.WindowPlan.Placement;
import io.sf2loki.model.LogEntry;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where the sink pushed each entry, kept beyond one process: what makes {@code deadletter replay}
 * idempotent ({@link ReplayJournal}). Loki drops only an entry identical in stream, timestamp and
 * line to one it holds, and the sink's placement of a late or too-old entry depends on the clock
 * and on what it knows of the streams; so an entry pushed before (a <em>pin</em>) is pushed again
 * exactly as it was, never placed anew unless Loki refused that very placement in a push whose
 * answer this process read. The daemon uses {@link #NONE}: its entries are never pushed twice by
 * design, and a retried batch is placed by the planner as before.
 *
 * <p>Entries are the originals as planned (before placement); an entry the ledger does not track is
 * treated as never pushed.
 */
interface PlacementLedger {

  /** Tracks nothing: every entry is placed afresh. */
  PlacementLedger NONE =
      new PlacementLedger() {
        @Override
        public Optional<Pin> pin(LogEntry original) {
          return Optional.empty();
        }

        @Override
        public boolean release(LogEntry original) {
          return true;
        }

        @Override
        public void placing(List<Pin> pins) {}

        @Override
        public void unanswered(List<LogEntry> originals) {}

        @Override
        public void stored(List<LogEntry> originals) {}

        @Override
        public void unconfirmed(LogEntry original) {}
      };

  /**
   * Where an original entry is pushed.
   *
   * @param original the entry as planned
   * @param moved how a placement moved it (routed, re-timestamped); empty when it is pushed as it
   *     is
   */
  record Pin(LogEntry original, Optional<Placement> moved) {

    /** What is pushed. */
    LogEntry placed() {
      return moved.isPresent() ? moved.get().placed() : original;
    }
  }

  /** The pin of {@code original}: where an earlier push, of this process or another, sent it. */
  Optional<Pin> pin(LogEntry original);

  /**
   * Gives up the pin of {@code original}, which Loki refuses now, so that it is placed anew: only
   * when no push of it can have stored it (pinned by this process, every push of it answered).
   *
   * @return false when an earlier push may have stored it: the pin stays, and it must not be placed
   *     anywhere else
   */
  boolean release(LogEntry original);

  /**
   * Records, durably, where these entries are pushed, before the push (write-ahead).
   *
   * @throws IOException when that cannot be recorded: the push must not be made
   */
  void placing(List<Pin> pins) throws IOException;

  /** A push of these entries got no final answer: it may have stored them. */
  void unanswered(List<LogEntry> originals);

  /**
   * Loki accepted a push of these entries. A failure to record it is the ledger's to report: the
   * entries are stored either way, and a later run pushes them exactly as before.
   */
  void stored(List<LogEntry> originals);

  /**
   * {@code original} was not pushed: Loki refuses its pin, which an earlier push may have stored.
   */
  void unconfirmed(LogEntry original);
}
