package io.sf2loki.testkit.otlp;

import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.loki.LokiRejectionBody;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loki's time rules as its {@code /otlp/v1/logs} applies them, per stream of Loki labels ({@link
 * LokiOtlpRules}): the distributor refuses a record older than {@code reject_old_samples_max_age}
 * ({@code greater_than_max_sample_age}) or further ahead than {@code creation_grace_period} ({@code
 * too_far_in_future}); the ingester one more than the out-of-order window behind the newest record
 * of its stream ({@code too_far_behind}), and drops an exact duplicate (same stream, time and body)
 * silently. The valid records are stored either way. Like Loki's ingester, only the <em>last</em>
 * stream of a request that reached it reports its too-far-behind records: an earlier stream's are
 * refused without a word. A request with a reported refusal is answered 400 with Loki's texts
 * (which Loki's OTLP handler sends as a {@code google.rpc.Status} message). Thread-safe: one lock
 * per request, like one ingester.
 */
final class LokiTimeWindows {

  /** Why a record was refused, named like Loki's discard reasons. */
  static final String TOO_OLD = "greater_than_max_sample_age";

  static final String TOO_NEW = "too_far_in_future";
  static final String TOO_FAR_BEHIND = "too_far_behind";

  /**
   * What one request came to.
   *
   * @param stored the records stored
   * @param refused the records refused, with their reason, reported or not
   * @param message the 400 body's text; empty when nothing refused was reported
   */
  record Outcome(
      List<ReceivedLogRecord> stored, List<FakeOtlpLogs.Refusal> refused, String message) {}

  private final LokiLimits limits;
  private final Clock clock;
  private final Map<Map<String, String>, Long> newest = new HashMap<>();
  private final Set<List<Object>> seen = new HashSet<>();

  LokiTimeWindows(LokiLimits limits, Clock clock) {
    this.limits = limits;
    this.clock = clock;
  }

  synchronized Outcome ingest(List<ReceivedLogRecord> records, String tenant) {
    long now = nanos(clock.instant());
    long oldest = now - limits.rejectOldSamplesMaxAge().toNanos();
    long latest = now + limits.creationGracePeriod().toNanos();
    LokiRejectionBody report = new LokiRejectionBody(tenant);
    List<ReceivedLogRecord> stored = new ArrayList<>();
    List<FakeOtlpLogs.Refusal> refused = new ArrayList<>();
    Map<Map<String, String>, List<ReceivedLogRecord>> streams = new LinkedHashMap<>();
    for (ReceivedLogRecord r : records) {
      long ts = timestamp(r);
      if (ts < oldest) {
        refused.add(new FakeOtlpLogs.Refusal(r, TOO_OLD));
        report.tooOld(r.lokiLabels(), ts, oldest);
      } else if (ts > latest) {
        refused.add(new FakeOtlpLogs.Refusal(r, TOO_NEW));
        report.tooNew(r.lokiLabels(), ts);
      } else {
        streams.computeIfAbsent(r.lokiLabels(), k -> new ArrayList<>()).add(r);
      }
    }
    Runnable lastStreamError = null;
    long window = limits.outOfOrderWindow().toNanos();
    for (Map.Entry<Map<String, String>, List<ReceivedLogRecord>> s : streams.entrySet()) {
      List<Long> behind = new ArrayList<>();
      List<Long> cutoffs = new ArrayList<>();
      for (ReceivedLogRecord r : s.getValue()) {
        long ts = timestamp(r);
        Long n = newest.get(s.getKey());
        long cutoff = n == null ? Long.MIN_VALUE : n - window;
        if (ts < cutoff) {
          refused.add(new FakeOtlpLogs.Refusal(r, TOO_FAR_BEHIND));
          behind.add(ts);
          cutoffs.add(cutoff);
        } else if (seen.add(List.of(s.getKey(), ts, r.body()))) {
          newest.merge(s.getKey(), ts, Math::max);
          stored.add(r);
        }
      }
      Map<String, String> labels = s.getKey();
      int reached = s.getValue().size();
      lastStreamError =
          behind.isEmpty()
              ? null
              : () -> report.tooFarBehind(labels, longs(behind), longs(cutoffs), reached);
    }
    if (lastStreamError != null) {
      lastStreamError.run();
    }
    return new Outcome(stored, refused, report.isEmpty() ? "" : report.body());
  }

  /** Loki's timestamp of a record: its time, else its observed time, else its arrival. */
  private long timestamp(ReceivedLogRecord r) {
    if (r.timeUnixNano() != 0) {
      return r.timeUnixNano();
    }
    return r.observedTimeUnixNano() != 0 ? r.observedTimeUnixNano() : nanos(clock.instant());
  }

  private static long[] longs(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).toArray();
  }

  private static long nanos(Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }
}
