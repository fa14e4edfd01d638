package io.sf2loki.loki;

import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;

/**
 * What one push did outside plain delivery — entries routed, re-timestamped, held or dropped —
 * gathered per stream and outcome and logged as one line each when the push ends, so a late file of
 * 500 rows is one line, not 500 (counted per entry in the metrics all the same).
 */
final class PushReport {

  /** One line: which stream and what happened. */
  private record Key(StringMap stream, String outcome, boolean warn) {}

  private static final class Tally {
    final String detail; // the first entry's: Loki's texts differ per entry (they quote times)
    long count;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;

    Tally(String detail) {
      this.detail = detail;
    }
  }

  private final Map<Key, Tally> tallies = new LinkedHashMap<>();

  /**
   * Records one entry.
   *
   * @param original the entry as the source made it (its labels and event time are reported)
   * @param outcome what happened, e.g. {@code "routed to late=\"1\""}
   * @param detail why, one clause (the first entry's is kept for the line)
   * @param warn whether the line is a WARN (data dropped or held) rather than INFO
   */
  void add(LogEntry original, String outcome, String detail, boolean warn) {
    Tally t =
        tallies.computeIfAbsent(new Key(original.labels(), outcome, warn), k -> new Tally(detail));
    t.count++;
    t.first = Math.min(t.first, original.timestampNanos());
    t.last = Math.max(t.last, original.timestampNanos());
  }

  boolean isEmpty() {
    return tallies.isEmpty();
  }

  /** Logs one line per stream and outcome, then forgets them. */
  void log(Logger log) {
    tallies.forEach(
        (k, t) -> {
          String msg = "{} {} entr{} of {} (event times {} to {}): {}";
          Object[] args = {
            k.outcome(),
            t.count,
            t.count == 1 ? "y" : "ies",
            LokiStream.selector(k.stream()),
            WindowPlanner.eventTime(t.first),
            WindowPlanner.eventTime(t.last),
            t.detail
          };
          if (k.warn()) {
            log.warn(msg, args);
          } else {
            log.info(msg, args);
          }
        });
    tallies.clear();
  }
}
