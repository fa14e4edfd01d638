package io.sf2loki.loki;

import io.sf2loki.loki.TimeWindowConfig.FuturePolicy;
import io.sf2loki.loki.TimeWindowConfig.LatePolicy;
import io.sf2loki.loki.WindowPlan.Action;
import io.sf2loki.loki.WindowPlan.Placement;
import io.sf2loki.loki.WindowPlan.Reason;
import io.sf2loki.model.LabelSetMemo;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Decides, before a push, what happens to each entry that Loki would reject for its timestamp
 * (loki-push.md §7): one more than {@code out_of_order_window} behind the newest entry of its
 * stream ({@link StreamNewest}), more than {@code creation_grace_period} ahead of this host's
 * clock, or older than {@code max_age}. The policies of {@link TimeWindowConfig} say what: route a
 * late entry into a {@code late="N"} stream where it is not behind, re-timestamp it with its event
 * time in {@code event_time} metadata, hold a too-new one back, or drop it deliberately.
 *
 * <p>Why the plan compares against the stream's newest <em>before</em> the batch: the encoder sends
 * each stream's entries in timestamp order, so every entry no further behind than the window from
 * that value is accepted however far the batch itself spans. Late entries are placed oldest first,
 * so the ones routed into one late stream arrive there in order too.
 *
 * <p>Re-timestamping never moves a stream's window: a late or too-old entry takes the newest
 * timestamp known for its stream (as Vector's {@code rewrite_timestamp} does), so the live data
 * behind it is not made late in turn. That target moves with the clock and the stream, so a
 * replay's entry pushed once is <em>pinned</em> ({@link PlacementLedger}): planned where it went
 * before, so that Loki drops the copy, unless that is now outside Loki's windows. Then it is placed
 * afresh only when no push can have stored it, and is otherwise left out as {@link
 * Action#UNCONFIRMED}. Thread-safe (one plan at a time).
 */
final class WindowPlanner {

  private final TimeWindowConfig config;
  private final StreamKey streams;
  private final StreamNewest newest;
  private final PlacementLedger ledger;
  private final boolean pinning;
  private final long windowNanos;
  private final long graceNanos;
  private final long maxAgeNanos;
  private final long pinMaxAgeNanos;
  private final long maxHoldNanos;
  private final LabelSetMemo<StringMap[]> lateLabels = new LabelSetMemo<>();

  WindowPlanner(TimeWindowConfig config, StreamNewest newest) {
    this(config, newest, PlacementLedger.NONE);
  }

  /**
   * @param ledger where entries were pushed before: a pinned entry is planned where it was pushed
   */
  WindowPlanner(TimeWindowConfig config, StreamNewest newest, PlacementLedger ledger) {
    this(config, StreamKey.LABELS, newest, ledger);
  }

  /**
   * @param streams which Loki stream an entry lands in: every window is kept per stream
   */
  WindowPlanner(
      TimeWindowConfig config, StreamKey streams, StreamNewest newest, PlacementLedger ledger) {
    this.config = config;
    this.streams = streams;
    this.newest = newest;
    this.ledger = ledger;
    this.pinning = ledger != PlacementLedger.NONE;
    this.windowNanos = config.outOfOrderWindow().toNanos();
    this.graceNanos = config.creationGracePeriod().toNanos();
    this.maxAgeNanos = config.maxAge().minus(TimeWindowConfig.MAX_AGE_MARGIN).toNanos();
    // A pin is pushed now or never, so it keeps its place up to Loki's own limit: a plan made
    // again a moment later must not find the oldest stamp it gave out too old.
    this.pinMaxAgeNanos = config.maxAge().toNanos();
    this.maxHoldNanos = config.maxHold().toNanos();
  }

  /** The window tracker this planner reads and feeds. */
  StreamNewest newest() {
    return newest;
  }

  /** Which Loki stream an entry lands in. */
  StreamKey streams() {
    return streams;
  }

  /** Plans {@code entries} (real entries, in batch order) for a push at {@code now}. */
  synchronized WindowPlan plan(List<LogEntry> entries, Instant now) {
    return plan(entries, null, now);
  }

  /**
   * Plans {@code entries} (originals of {@code previous}'s batch) again at {@code now}: against
   * each stream's newest before the batch as {@code previous} saw it, raised by what Loki taught
   * since.
   */
  synchronized WindowPlan replan(List<LogEntry> entries, WindowPlan previous, Instant now) {
    return plan(entries, previous.before(), now);
  }

  private WindowPlan plan(List<LogEntry> entries, Map<StringMap, Long> before, Instant now) {
    long version = newest.version();
    long nowNanos = nanos(now);
    Map<StringMap, long[]> streams = new HashMap<>(); // labels -> {newest before, newest on time}
    PlanDraft draft = new PlanDraft(entries);
    List<Integer> outside = null;
    List<Reason> reasons = null;
    StringMap lastStream = null;
    long[] last = null;
    for (int i = 0; i < entries.size(); i++) {
      LogEntry e = entries.get(i);
      if (pinning && keepPin(draft, i, e, streams, before, nowNanos)) {
        continue;
      }
      StringMap stream = this.streams.of(e);
      if (stream != lastStream) {
        lastStream = stream;
        last = stream(streams, stream, before);
      }
      Reason r = classify(e.timestampNanos(), last[0], nowNanos);
      if (r == null) {
        last[1] = Math.max(last[1], e.timestampNanos());
      } else {
        if (outside == null) {
          outside = new ArrayList<>();
          reasons = new ArrayList<>();
        }
        outside.add(i);
        reasons.add(r);
      }
    }
    streams.forEach(
        (labels, n) -> {
          if (n[1] != Long.MIN_VALUE) {
            newest.sent(labels, n[1]);
          }
        });
    Map<StringMap, Long> snapshot = new HashMap<>(streams.size() * 2);
    streams.forEach((labels, n) -> snapshot.put(labels, n[0]));
    if (outside == null && !draft.changed()) {
      return new WindowPlan(entries, Map.of(), List.of(), Long.MIN_VALUE, version, snapshot, now);
    }
    return placeOutside(
        entries, draft, outside == null ? List.of() : outside, reasons, now, version, snapshot);
  }

  /** {@code {newest before, newest on time}} of {@code labels}, created on first use. */
  private long[] stream(Map<StringMap, long[]> streams, StringMap labels, Map<StringMap, Long> b) {
    return streams.computeIfAbsent(labels, l -> new long[] {newestBefore(l, b), Long.MIN_VALUE});
  }

  /**
   * Whether entry {@code i} is settled by its pin ({@link PlacementLedger}): planned where it was
   * pushed before, or left out because Loki refuses that now and an earlier push may have stored
   * it. A pin Loki refuses that no push can have stored is released, and the entry placed afresh.
   */
  private boolean keepPin(
      PlanDraft draft,
      int i,
      LogEntry e,
      Map<StringMap, long[]> streams,
      Map<StringMap, Long> before,
      long now) {
    Optional<PlacementLedger.Pin> pin = ledger.pin(e);
    if (pin.isEmpty()) {
      return false;
    }
    LogEntry p = pin.get().placed();
    long[] s = stream(streams, this.streams.of(p), before);
    Reason r = refused(p.timestampNanos(), s[0], now);
    if (r == null) {
      s[1] = Math.max(s[1], p.timestampNanos());
      pin.get().moved().ifPresent(moved -> draft.replace(i, moved));
      return true;
    }
    if (ledger.release(e)) {
      return false;
    }
    draft.remove(i, new Placement(e, p, r, Action.UNCONFIRMED));
    return true;
  }

  private long newestBefore(StringMap labels, Map<StringMap, Long> before) {
    if (before == null) {
      return newest.get(labels);
    }
    Long n = before.get(labels);
    return Math.max(n == null ? newest.get(labels) : n, newest.learned(labels));
  }

  private WindowPlan placeOutside(
      List<LogEntry> entries,
      PlanDraft draft,
      List<Integer> outside,
      List<Reason> reasons,
      Instant at,
      long version,
      Map<StringMap, Long> snapshot) {
    long now = nanos(at);
    Integer[] order = new Integer[outside.size()];
    for (int k = 0; k < order.length; k++) {
      order[k] = k;
    }
    java.util.Arrays.sort(
        order, Comparator.comparingLong(k -> entries.get(outside.get(k)).timestampNanos()));
    long holdUntil = Long.MIN_VALUE;
    for (Integer k : order) {
      int i = outside.get(k);
      Placement p = place(entries.get(i), reasons.get(k), now);
      if (p.action() == Action.DROPPED) {
        draft.remove(i, p);
        continue;
      }
      if (p.action() == Action.HELD) {
        holdUntil = Math.max(holdUntil, p.original().timestampNanos() - graceNanos);
      }
      draft.replace(i, p);
    }
    return new WindowPlan(
        draft.send(), draft.placements(), draft.removed(), holdUntil, version, snapshot, at);
  }

  /** Which rule {@code ts} breaks against a stream whose newest is {@code streamNewest}, if any. */
  private Reason classify(long ts, long streamNewest, long now) {
    if (ts < now - maxAgeNanos) {
      return Reason.TOO_OLD;
    }
    if (ts > now + graceNanos) {
      return Reason.TOO_FAR_IN_FUTURE;
    }
    if (streamNewest != StreamNewest.UNKNOWN && ts < streamNewest - windowNanos) {
      return Reason.TOO_FAR_BEHIND;
    }
    return null;
  }

  /** Which rule a pinned entry at {@code ts} breaks now, of those that only get worse with time. */
  private Reason refused(long ts, long streamNewest, long now) {
    if (ts < now - pinMaxAgeNanos) {
      return Reason.TOO_OLD;
    }
    if (streamNewest != StreamNewest.UNKNOWN && ts < streamNewest - windowNanos) {
      return Reason.TOO_FAR_BEHIND;
    }
    return null;
  }

  /**
   * The placement of {@code e} (an original entry) known to break {@code reason}, at {@code now}:
   * from a plan, or after Loki rejected it for that reason. A pinned entry that an earlier push may
   * have stored is {@link Action#UNCONFIRMED}, never placed anew.
   */
  synchronized Placement place(LogEntry e, Reason reason, Instant now) {
    if (pinning) {
      Optional<PlacementLedger.Pin> pin = ledger.pin(e);
      if (pin.isPresent() && !ledger.release(e)) {
        return new Placement(e, pin.get().placed(), reason, Action.UNCONFIRMED);
      }
    }
    return place(e, reason, nanos(now));
  }

  private Placement place(LogEntry e, Reason reason, long now) {
    return switch (reason) {
      case TOO_FAR_BEHIND ->
          switch (config.latePolicy()) {
            case ROUTE -> routed(e, now);
            case RETIMESTAMP -> retimestamped(e, reason, behindTarget(e, now));
            case DROP -> dropped(e, reason);
          };
      case TOO_OLD ->
          config.latePolicy() == LatePolicy.DROP
              ? dropped(e, reason)
              : retimestamped(e, reason, behindTarget(e, now));
      case TOO_FAR_IN_FUTURE -> {
        FuturePolicy policy = config.futurePolicy();
        if (policy == FuturePolicy.DROP) {
          yield dropped(e, reason);
        }
        if (policy == FuturePolicy.HOLD && e.timestampNanos() - graceNanos - now <= maxHoldNanos) {
          newest.sent(streams.of(e), e.timestampNanos());
          yield new Placement(e, e, reason, Action.HELD);
        }
        yield retimestamped(e, reason, futureTarget(e, now));
      }
    };
  }

  /**
   * Into the late stream where it fits best: the one with the newest timestamp it is not behind,
   * else one not written yet; when every late stream is too far ahead, re-timestamped.
   */
  private Placement routed(LogEntry e, long now) {
    StringMap[] late = lateLabels.get(e.labels(), this::lateLabelSets);
    long ts = e.timestampNanos();
    int best = -1;
    long bestNewest = Long.MIN_VALUE;
    int unknown = -1;
    StringMap[] lateStreams = new StringMap[late.length];
    for (int k = 0; k < late.length; k++) {
      lateStreams[k] = streams.of(late[k], e.metadata());
      long n = newest.get(lateStreams[k]);
      if (n == StreamNewest.UNKNOWN) {
        unknown = unknown < 0 ? k : unknown;
      } else if (ts >= n - windowNanos && n > bestNewest) {
        best = k;
        bestNewest = n;
      }
    }
    int chosen = best >= 0 ? best : unknown;
    if (chosen < 0) {
      return retimestamped(e, Reason.TOO_FAR_BEHIND, behindTarget(e, now));
    }
    newest.sent(lateStreams[chosen], ts);
    LogEntry placed = LogEntry.of(ts, late[chosen], e.line(), e.metadata(), e.checkpoint());
    return new Placement(e, placed, Reason.TOO_FAR_BEHIND, Action.ROUTED);
  }

  private StringMap[] lateLabelSets(StringMap labels) {
    StringMap[] sets = new StringMap[config.lateStreams()];
    for (int k = 0; k < sets.length; k++) {
      Map<String, String> m = new TreeMap<>(labels);
      m.put(TimeWindowConfig.LATE_LABEL, Integer.toString(k + 1));
      sets[k] = StringMap.of(m);
    }
    return sets;
  }

  /** A late or too-old entry: the stream's newest known timestamp, inside the max age. */
  private long behindTarget(LogEntry e, long now) {
    long oldest = now - maxAgeNanos;
    long n = newest.get(streams.of(e));
    if (n == StreamNewest.UNKNOWN || n < oldest) {
      return oldest;
    }
    return Math.min(n, now + graceNanos);
  }

  /** A too-new entry: the push time, or the stream's newest when that is ahead of it. */
  private long futureTarget(LogEntry e, long now) {
    long n = newest.get(streams.of(e));
    return n == StreamNewest.UNKNOWN ? now : Math.min(Math.max(n, now), now + graceNanos);
  }

  private Placement retimestamped(LogEntry e, Reason reason, long target) {
    Map<String, String> metadata = new TreeMap<>(e.metadata());
    metadata.putIfAbsent(TimeWindowConfig.EVENT_TIME_KEY, eventTime(e.timestampNanos()));
    newest.sent(streams.of(e), target);
    LogEntry placed = LogEntry.of(target, e.labels(), e.line(), metadata, e.checkpoint());
    return new Placement(e, placed, reason, Action.RETIMESTAMPED);
  }

  private static Placement dropped(LogEntry e, Reason reason) {
    return new Placement(e, e, reason, Action.DROPPED);
  }

  /** RFC 3339 with nanoseconds, UTC: the form Loki's own timestamps take in LogQL output. */
  static String eventTime(long nanos) {
    return Instant.ofEpochSecond(
            Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L))
        .toString();
  }

  static long nanos(Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }
}
