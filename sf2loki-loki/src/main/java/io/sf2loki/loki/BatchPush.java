package io.sf2loki.loki;

import io.sf2loki.loki.LokiRejections.TooFarBehind;
import io.sf2loki.loki.WindowPlan.Action;
import io.sf2loki.loki.WindowPlan.Placement;
import io.sf2loki.loki.WindowPlan.Reason;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import io.sf2loki.spi.RetryableSinkException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One push of one batch's pending entries, as {@link WindowPlan}ned: policy drops and holds first,
 * then the push; on a 400 that names a time rule the lesson is learned (Loki's "oldest acceptable
 * timestamp" per stream) and the entries are planned again instead of dropped; any other 400 or a
 * 413 bisects, in timestamp order so that each half stays in its streams' order, down to the
 * entries Loki refuses for good, which are dropped, counted and dead-lettered. What happened beyond
 * plain delivery is logged as one line per stream and outcome ({@link PushReport}). Streams are
 * Loki's as {@link StreamKey} makes them; the wire is the sink's ({@link PushParts}). Not
 * thread-safe: one per push call.
 *
 * @param <B> the sink's encoded request body
 */
final class BatchPush<B> {

  private static final Logger LOG = LoggerFactory.getLogger(LokiSink.class);

  /** Lessons taken per stream from one push's rejections before bisecting anyway. */
  private static final int MAX_LESSONS_PER_STREAM = 4;

  private final PushParts<B> parts;
  private final StreamKey streams;
  private final Set<LogEntry> resolved;
  private final WindowPlan first;
  private final Map<LogEntry, Placement> placements = new IdentityHashMap<>();
  private final Map<LogEntry, Integer> rejectedTimes = new IdentityHashMap<>();
  private final Map<StringMap, Integer> lessons = new HashMap<>();
  private final List<List<LogEntry>> deliveredParts = new ArrayList<>();
  private final PushReport report = new PushReport();

  /**
   * @param resolved the batch's original entries already delivered or dropped, by identity; when
   *     this push fails part-way it adds what it delivered, so a retry of the batch sends only the
   *     rest
   * @param first the batch's first plan, whose view of the streams before the batch every later
   *     plan of it starts from
   */
  BatchPush(PushParts<B> parts, Set<LogEntry> resolved, WindowPlan first) {
    this.parts = parts;
    this.streams = parts.planner().streams();
    this.resolved = resolved;
    this.first = first;
  }

  /** Delivers {@code plan}, whose {@code body} (when present) encodes exactly its entries. */
  void run(WindowPlan plan, Optional<B> body) throws RetryableSinkException, InterruptedException {
    boolean complete = false;
    try {
      absorb(plan);
      deliverByStreams(plan.send(), body, plan.version());
      complete = true;
    } finally {
      if (!complete) {
        // Only a failed push needs them: a complete one is never pushed again.
        for (List<LogEntry> part : deliveredParts) {
          for (LogEntry e : part) {
            resolved.add(original(e));
          }
        }
      }
      report.log(LOG);
    }
  }

  private void absorb(WindowPlan plan) throws InterruptedException {
    placements.putAll(plan.placements());
    for (Placement d : plan.dropped()) {
      if (d.action() == Action.UNCONFIRMED) {
        unconfirmed(d);
      } else {
        dropByPolicy(d);
      }
    }
    if (plan.holdUntilNanos() != Long.MIN_VALUE) {
      parts.hold(plan);
    }
  }

  /**
   * Delivers {@code send}: in one push when every stream in it is confirmed (or it is one stream),
   * otherwise each stream that is not confirmed in a push of its own, because Loki reports only the
   * last stream's too-far-behind entries ({@link StreamNewest}).
   */
  private void deliverByStreams(List<LogEntry> send, Optional<B> encoded, long version)
      throws RetryableSinkException, InterruptedException {
    if (send.isEmpty()) {
      return;
    }
    if (version != parts.planner().newest().version()) {
      // Loki taught us something since this was planned: plan it again with what we know now.
      WindowPlan again = parts.planner().replan(originals(send), first, parts.clock().instant());
      absorb(again);
      send = again.send();
      encoded = Optional.empty();
      version = again.version();
      if (send.isEmpty()) {
        return; // the policy dropped or held every entry
      }
    }
    List<List<LogEntry>> groups = byConfirmation(send);
    if (groups.size() == 1) {
      deliver(send, encoded, version);
      return;
    }
    for (List<LogEntry> group : groups) {
      deliver(group, Optional.empty(), version);
    }
  }

  /** {@code send} as is, or split into the confirmed streams and each other stream apart. */
  private List<List<LogEntry>> byConfirmation(List<LogEntry> send) {
    StreamNewest newest = parts.planner().newest();
    StringMap firstLabels = streams.of(send.get(0));
    boolean oneStream = true;
    boolean allConfirmed = true;
    StringMap last = null;
    for (LogEntry e : send) {
      StringMap labels = streams.of(e);
      if (labels != last) {
        last = labels;
        oneStream &= labels.equals(firstLabels);
        allConfirmed &= newest.isConfirmed(labels);
      }
    }
    if (oneStream || allConfirmed) {
      return List.of(send);
    }
    List<LogEntry> confirmed = new ArrayList<>();
    Map<StringMap, List<LogEntry>> alone = new LinkedHashMap<>();
    for (LogEntry e : send) {
      StringMap stream = streams.of(e);
      if (newest.isConfirmed(stream)) {
        confirmed.add(e);
      } else {
        alone.computeIfAbsent(stream, k -> new ArrayList<>()).add(e);
      }
    }
    List<List<LogEntry>> groups = new ArrayList<>(alone.size() + 1);
    if (!confirmed.isEmpty()) {
      groups.add(confirmed);
    }
    groups.addAll(alone.values());
    return groups;
  }

  private void deliver(List<LogEntry> send, Optional<B> encoded, long version)
      throws RetryableSinkException, InterruptedException {
    if (send.isEmpty()) {
      return;
    }
    if (version != parts.planner().newest().version()) {
      deliverByStreams(send, Optional.empty(), version); // plans again, regroups
      return;
    }
    B body = encoded.isPresent() ? encoded.get() : parts.encode(send);
    if (parts.replaying()) {
      pinning(send);
    }
    PushParts.Answer r;
    try {
      r = parts.send(body);
    } catch (RetryableSinkException | InterruptedException e) {
      if (parts.replaying()) {
        parts.ledger().unanswered(originals(send));
      }
      throw e;
    }
    if (r.accepted()) {
      delivered(send, body);
      return;
    }
    Optional<Reason> rule =
        r.status() == 400 ? LokiRejections.reason(r.body()) : Optional.<Reason>empty();
    rule.ifPresent(parts::windowRejection);
    if (rule.isPresent() && learnFrom(r.body(), send)) {
      deliverByStreams(send, Optional.empty(), version); // stale now: planned again
      return;
    }
    if (send.size() == 1) {
      single(send.get(0), r, rule);
      return;
    }
    // Loki may have stored the valid part already; re-pushing it is harmless (exact duplicates
    // are dropped server-side). Halves in timestamp order keep each stream's entries in order, so
    // the first half's entries never put the second half's behind.
    List<LogEntry> sorted = new ArrayList<>(send);
    sorted.sort(Comparator.comparingLong(LogEntry::timestampNanos));
    int mid = sorted.size() / 2;
    deliver(sorted.subList(0, mid), Optional.empty(), version);
    deliver(sorted.subList(mid, sorted.size()), Optional.empty(), version);
  }

  /** Records where {@code send} goes before it is pushed ({@link PlacementLedger}). */
  private void pinning(List<LogEntry> send) throws RetryableSinkException {
    List<PlacementLedger.Pin> pins = new ArrayList<>(send.size());
    for (LogEntry e : send) {
      Placement p = placements.get(e);
      boolean moved = p != null && p.action() != Action.HELD; // held: pushed as it is
      pins.add(
          new PlacementLedger.Pin(
              p == null ? e : p.original(), moved ? Optional.of(p) : Optional.empty()));
    }
    try {
      parts.ledger().placing(pins);
    } catch (IOException e) {
      throw new RetryableSinkException(
          "cannot record where the entries go before pushing them: " + e.getMessage(), 0, null, e);
    }
  }

  private void delivered(List<LogEntry> send, B body) {
    parts.accepted(body);
    deliveredParts.add(send);
    if (parts.replaying()) {
      parts.ledger().stored(originals(send));
    }
    StringMap only = streams.of(send.get(0));
    for (LogEntry e : send) {
      StringMap stream = streams.of(e);
      if (stream != only && !stream.equals(only)) {
        only = null;
        break;
      }
    }
    if (only != null) {
      parts.planner().newest().confirm(only); // Loki's answer was about this stream alone
    }
    if (placements.isEmpty()) {
      return;
    }
    for (LogEntry e : send) {
      Placement p = placements.get(e);
      if (p != null) {
        parts.outOfWindow(p.original(), p.reason(), p.action());
        report.add(p.original(), outcome(p), parts.explain(p), p.action() == Action.HELD);
      }
    }
  }

  /** Raises the newest timestamps of the request's streams that Loki's body names. */
  private boolean learnFrom(String body, List<LogEntry> send) {
    Set<StringMap> streams = new HashSet<>();
    for (LogEntry e : send) {
      streams.add(this.streams.of(e));
    }
    long window = parts.windows().outOfOrderWindow().toNanos();
    boolean learned = false;
    for (TooFarBehind b : LokiRejections.tooFarBehind(body)) {
      if (streams.contains(b.stream())
          && lessons.merge(b.stream(), 1, Integer::sum) <= MAX_LESSONS_PER_STREAM) {
        // The cutoff is printed to the second, truncated: a second more keeps it a lower bound
        // of what Loki accepts, and our window (Loki's less a margin) stays on the safe side.
        long cutoff = WindowPlanner.nanos(b.oldestAcceptable().plusSeconds(1));
        learned |= parts.planner().newest().learned(b.stream(), cutoff + window);
      }
    }
    return learned;
  }

  /** One entry Loki answered 400 or 413 for on its own. */
  private void single(LogEntry e, PushParts.Answer r, Optional<Reason> rule)
      throws RetryableSinkException, InterruptedException {
    LogEntry original = original(e);
    if (rule.isEmpty()) {
      dropRejected(original, r);
      return;
    }
    Reason reason = rule.get();
    int times = rejectedTimes.merge(original, 1, Integer::sum);
    if (times > parts.windows().lateStreams() + 3) {
      throw new RetryableSinkException(
          "Loki keeps rejecting an entry of "
              + LokiStream.selector(streams.of(original))
              + " as "
              + reason.tag
              + " after "
              + times
              + " placements (is sink.loki.out_of_order_window or max_age larger than the"
              + " tenant's?); the batch is kept and retried",
          400,
          null,
          null);
    }
    Instant now = parts.clock().instant();
    switch (reason) {
      case TOO_FAR_BEHIND -> {
        // Its stream in Loki is at least a window ahead of it: planned again, it goes elsewhere.
        long window = parts.windows().outOfOrderWindow().toNanos();
        parts.planner().newest().learned(streams.of(e), e.timestampNanos() + window + 1);
        deliverByStreams(List.of(e), Optional.empty(), Long.MIN_VALUE);
      }
      case TOO_OLD -> place(parts.planner().place(original, reason, now));
      case TOO_FAR_IN_FUTURE -> {
        if (parts.windows().futurePolicy() == TimeWindowConfig.FuturePolicy.DROP) {
          dropByPolicy(new Placement(original, original, reason, Action.DROPPED));
          return;
        }
        throw new RetryableSinkException(
            "Loki rejected an entry of "
                + LokiStream.selector(streams.of(original))
                + " as too far in the future although it is within"
                + " sink.loki.creation_grace_period of this host's clock: Loki's clock is behind"
                + " this host's; the batch is kept and retried",
            400,
            null,
            null);
      }
    }
  }

  private void place(Placement p) throws RetryableSinkException, InterruptedException {
    if (p.action() == Action.DROPPED) {
      dropByPolicy(p);
      return;
    }
    if (p.action() == Action.UNCONFIRMED) {
      unconfirmed(p);
      return;
    }
    placements.put(p.placed(), p);
    deliverByStreams(List.of(p.placed()), Optional.empty(), parts.planner().newest().version());
  }

  private LogEntry original(LogEntry placed) {
    Placement p = placements.get(placed);
    return p == null ? placed : p.original();
  }

  private List<LogEntry> originals(List<LogEntry> send) {
    List<LogEntry> out = new ArrayList<>(send.size());
    for (LogEntry e : send) {
      out.add(original(e));
    }
    return out;
  }

  private void dropByPolicy(Placement d) {
    resolved.add(d.original()); // at once: a retry must never count or dead-letter it again
    parts.dropped(d.original(), d.reason().tag);
    parts.outOfWindow(d.original(), d.reason(), Action.DROPPED);
    String why = parts.explain(d);
    report.add(d.original(), "Dropped", why, true);
    parts.deadLetter(d.original(), d.reason().tag, 0, why);
  }

  /**
   * Not pushed: Loki refuses where an earlier push put it, which may have stored it. Left to the
   * operator (the dead-letter file says why), never counted as dropped by the daemon's policies.
   */
  private void unconfirmed(Placement p) {
    resolved.add(p.original());
    parts.ledger().unconfirmed(p.original());
    String why = parts.explain(p);
    report.add(p.original(), outcome(p), why, true);
    parts.deadLetter(p.original(), "unconfirmed", 0, why);
  }

  private void dropRejected(LogEntry original, PushParts.Answer r) {
    String reason = r.dropReason();
    resolved.add(original);
    parts.dropped(original, reason);
    report.add(
        original,
        "Dropped",
        "Loki rejected them for good (" + r.status() + PushSender.describe(r.body()) + ")",
        true);
    parts.deadLetter(original, reason, r.status(), r.body());
  }

  private static String outcome(Placement p) {
    return switch (p.action()) {
      case ROUTED ->
          "Routed to "
              + TimeWindowConfig.LATE_LABEL
              + "=\""
              + p.placed().labels().get(TimeWindowConfig.LATE_LABEL)
              + "\"";
      case RETIMESTAMPED -> "Re-timestamped";
      case HELD -> "Held back";
      case DROPPED -> "Dropped";
      case UNCONFIRMED -> "Not pushed again";
    };
  }
}
