package io.sf2loki.testkit.loki;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Validates decoded streams against Loki's rules and stores the valid entries, dropping exact
 * duplicates (same stream, timestamp and line) as Loki does. Lines and metadata are kept as bytes
 * packed in a {@link LineArena}, not as strings, and entries as columns ({@link StoredEntries}).
 * Thread-safe: one lock around every push, like a single ingester.
 *
 * <p>Like Loki, it checks each entry twice: first the distributor's validation (labels, sample age,
 * line size, structured metadata), then the ingester's out-of-order window against the stream's
 * newest stored entry. The valid entries of a request are stored either way, and a request with any
 * rejected entry is answered 400 with Loki's own texts ({@link RejectionReport}): the ingester's
 * {@code entry with timestamp ... ignored, reason: 'entry too far behind, ...'} blocks, then the
 * distributor's messages (e.g. {@code entry for stream '{a="b"}' has timestamp too old: ...}), with
 * times and labels printed as Go and Prometheus print them ({@link GoFormats}).
 */
final class Ingester {

  private static final Pattern LABEL_NAME = Pattern.compile("^[a-zA-Z_][a-zA-Z0-9_]*$");

  /**
   * What a push came to: the status to answer, the text body, and the request's streams as kept for
   * {@link RecordedPush} (lines in the arena, so the decoded body is not retained; empty when
   * requests are not kept).
   */
  record Outcome(int status, String message, List<DecodedStream> streams) {}

  /** What {@link #store} returns for an accepted entry it was told not to keep. */
  private static final int NOT_KEPT = -2;

  /** Loki's {@code block_ingestion_status_code} default. */
  static final int BLOCKED_STATUS = 260;

  private final LokiLimits limits;
  private final Clock clock;
  private final boolean keepRequests;
  private final LokiVersion version;
  private final long desiredRate;
  private final boolean keepEntries;
  private final Map<String, Instant> blockedUntil = new HashMap<>();
  // Loki 3 sharding: per stream, the second (epoch) and the line bytes pushed in it so far.
  private final Map<Map<String, String>, long[]> rates = new HashMap<>();
  private final Map<Map<String, String>, StoredEntries.Stream> streams = new HashMap<>();
  private final LineArena arena = new LineArena();
  private final StoredEntries stored = new StoredEntries(arena);
  private long bytes;
  private long duplicates;
  private long rejected;

  /**
   * @param keepRequests keep each request's entries for {@link Outcome#streams()} (rejected and
   *     duplicate ones too); false stores only what was accepted
   */
  Ingester(LokiLimits limits, Clock clock, boolean keepRequests) {
    this(limits, clock, keepRequests, LokiVersion.V2_9, Loki3Rules.DEFAULT_DESIRED_RATE, true);
  }

  /**
   * @param version the Loki whose defaults to play
   * @param desiredRate {@code shard_streams.desired_rate} in bytes per second, for {@code V3}
   * @param keepEntries false keeps no accepted entry, only each stream's newest timestamp and the
   *     counters: nothing is found a duplicate, {@link #accepted()} is empty
   */
  Ingester(
      LokiLimits limits,
      Clock clock,
      boolean keepRequests,
      LokiVersion version,
      long desiredRate,
      boolean keepEntries) {
    this.keepEntries = keepEntries;
    this.limits = limits;
    this.clock = clock;
    this.keepRequests = keepRequests;
    this.version = version;
    this.desiredRate = desiredRate;
  }

  /** Blocks the tenant's ingestion until {@code until}, as {@code block_ingestion_until} does. */
  synchronized void block(String tenant, Instant until) {
    blockedUntil.put(tenant, until);
  }

  /** Lifts the tenant's block. */
  synchronized void unblock(String tenant) {
    blockedUntil.remove(tenant);
  }

  /**
   * Validates and stores one push.
   *
   * @param tenant the request's tenant ({@code X-Scope-OrgID}), named in the too-far-behind texts
   */
  synchronized Outcome ingest(
      List<DecodedStream> decoded, List<EntryRejection> rejections, String tenant) {
    for (EntryRejection r : rejections) {
      if (r.status() == 413 && containsMarker(decoded, r.marker())) {
        rejected += decoded.stream().mapToLong(s -> s.entries().size()).sum();
        String message = "request contains an entry marked '" + r.marker() + "'";
        return new Outcome(413, message, keepRequests ? keepAll(decoded) : List.of());
      }
    }
    Instant now = clock.instant();
    Instant blockEnd = blockedUntil.get(tenant);
    boolean blocked = blockEnd != null && now.isBefore(blockEnd);
    boolean blockedAny = false;
    long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    Bounds bounds =
        new Bounds(
            minus(nowNanos, limits.rejectOldSamplesMaxAge()),
            minus(nowNanos, limits.creationGracePeriod().negated()));
    RejectionReport report = new RejectionReport();
    List<DecodedStream> kept = keepRequests ? new ArrayList<>(decoded.size()) : List.of();
    // Loki's ingester answers with the error of the last stream it appended to (its appendErr is
    // overwritten per stream): an earlier stream's too-far-behind entries are lost silently.
    Runnable ingesterError = null;
    for (DecodedStream s : decoded) {
      List<DecodedEntry> keptEntries = keepRequests ? new ArrayList<>(s.entries().size()) : null;
      Map<String, String> labels =
          version == LokiVersion.V3 ? Loki3Rules.withServiceName(s.labels()) : s.labels();
      if (rejectedLabels(labels, report) || blocked) {
        // Loki checks the labels first; a blocked tenant's valid streams are refused whole.
        blockedAny |= blocked;
        rejected += s.entries().size();
        if (keepRequests) {
          s.entries().forEach(e -> keptEntries.add(copied(e)));
        }
      } else {
        int shards = shards(labels, s, now);
        StoredEntries.Stream[] byShard = new StoredEntries.Stream[shards];
        RejectionReport.TooFarBehind behind = null;
        int reachedIngester = 0;
        int index = 0;
        for (DecodedEntry e : s.entries()) {
          int shard = (int) ((long) index++ * shards / s.entries().size());
          if (byShard[shard] == null) {
            Map<String, String> target = shards > 1 ? Loki3Rules.shard(labels, shard) : labels;
            byShard[shard] = streams.computeIfAbsent(target, StoredEntries.Stream::new);
          }
          StoredEntries.Stream stream = byShard[shard];
          int slot = -1;
          if (rejectedByValidation(e, labels, rejections, bounds, report)) {
            rejected++;
          } else {
            // Past the distributor: the ingester's out-of-order window, against the newest entry
            // stored so far (which the request's own accepted entries advance).
            reachedIngester++;
            long cutoff =
                stream.newest == Long.MIN_VALUE
                    ? Long.MIN_VALUE
                    : minus(stream.newest, limits.outOfOrderWindow());
            if (e.timestampNanos() < cutoff) {
              rejected++;
              behind = behind != null ? behind : new RejectionReport.TooFarBehind();
              behind.add(e.timestampNanos(), cutoff);
            } else {
              slot = store(stream, e, storedMetadata(labels, e));
              slot = slot == NOT_KEPT ? -1 : slot;
            }
          }
          if (keepRequests) {
            keptEntries.add(slot >= 0 ? stored.entry(slot) : copied(e));
          }
        }
        if (reachedIngester > 0) {
          RejectionReport.TooFarBehind last = behind;
          int reached = reachedIngester;
          ingesterError = last == null ? null : () -> report.add(last, tenant, labels, reached);
        }
      }
      if (keepRequests) {
        kept.add(new DecodedStream(s.labels(), keptEntries));
      }
    }
    if (ingesterError != null) {
      ingesterError.run();
    }
    if (!report.isEmpty()) {
      return new Outcome(400, report.body(), kept);
    }
    if (blockedAny) {
      // Loki answers a block only when no validation error takes precedence.
      return new Outcome(
          BLOCKED_STATUS,
          RejectionReport.ingestionBlocked(tenant, blockEnd, BLOCKED_STATUS) + "\n",
          kept);
    }
    return new Outcome(204, "", kept);
  }

  /** The shards a V3 Loki splits this push of the stream into: 1 unless pushed too fast. */
  private int shards(Map<String, String> labels, DecodedStream s, Instant now) {
    if (version != LokiVersion.V3) {
      return 1;
    }
    long bytes = 0;
    for (DecodedEntry e : s.entries()) {
      bytes += e.lineUtf8Length();
    }
    long[] rate = rates.computeIfAbsent(labels, k -> new long[2]);
    if (rate[0] != now.getEpochSecond()) {
      rate[0] = now.getEpochSecond();
      rate[1] = 0;
    }
    rate[1] += bytes;
    return Math.min(Loki3Rules.shards(rate[1], desiredRate), Math.max(1, s.entries().size()));
  }

  /** The metadata stored with a valid entry: a V3 Loki adds {@code detected_level}. */
  private Map<String, String> storedMetadata(Map<String, String> labels, DecodedEntry e) {
    return version == LokiVersion.V3
        ? Loki3Rules.withDetectedLevel(labels, e.metadata(), e.line())
        : e.metadata();
  }

  /** The accepted timestamps, {@code [oldest, newest]}, in nanoseconds. */
  private record Bounds(long oldest, long newest) {}

  /** {@code t - d} in nanoseconds, saturating instead of overflowing. */
  private static long minus(long t, Duration d) {
    try {
      return Math.subtractExact(t, d.toNanos());
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }

  /**
   * Stores a valid entry unless it duplicates one; its slot, -1 for a duplicate, or {@link
   * #NOT_KEPT}.
   */
  private int store(StoredEntries.Stream stream, DecodedEntry e, Map<String, String> metadata) {
    if (!keepEntries) {
      stream.newest = Math.max(stream.newest, e.timestampNanos());
      bytes += e.lineUtf8Length();
      return NOT_KEPT;
    }
    int slot =
        stored.add(
            stream,
            e.timestampNanos(),
            e.lineArray(),
            e.lineOffset(),
            e.lineUtf8Length(),
            PackedPairs.pack(metadata));
    if (slot < 0) {
      duplicates++;
    } else {
      stream.newest = Math.max(stream.newest, e.timestampNanos());
      bytes += e.lineUtf8Length();
    }
    return slot;
  }

  /** {@code e} with its line copied into the arena, so the decoded body can be collected. */
  private DecodedEntry copied(DecodedEntry e) {
    long at = arena.append(e.lineArray(), e.lineOffset(), e.lineUtf8Length());
    return new DecodedEntry(
        e.timestampNanos(),
        arena.array(at),
        LineArena.offset(at),
        e.lineUtf8Length(),
        e.metadata());
  }

  private List<DecodedStream> keepAll(List<DecodedStream> decoded) {
    List<DecodedStream> kept = new ArrayList<>(decoded.size());
    for (DecodedStream s : decoded) {
      kept.add(new DecodedStream(s.labels(), s.entries().stream().map(this::copied).toList()));
    }
    return kept;
  }

  private static boolean containsMarker(List<DecodedStream> request, String marker) {
    return request.stream()
        .flatMap(s -> s.entries().stream())
        .anyMatch(e -> e.line().contains(marker));
  }

  /** True when the stream's labels are invalid; the reason goes to {@code report}. */
  private boolean rejectedLabels(Map<String, String> labels, RejectionReport report) {
    RejectionReport.Kind kind = RejectionReport.Kind.LABELS;
    if (labels.isEmpty()) {
      report.add(kind, RejectionReport::missingLabels);
      return true;
    }
    // Loki 3 does not count service_name, which it may have added itself.
    int counted =
        labels.size()
            - (version == LokiVersion.V3 && labels.containsKey(Loki3Rules.SERVICE_NAME) ? 1 : 0);
    if (counted > limits.maxLabelNamesPerSeries()) {
      report.add(
          kind,
          () ->
              RejectionReport.tooManyLabelNames(labels, counted, limits.maxLabelNamesPerSeries()));
      return true;
    }
    for (Map.Entry<String, String> l : labels.entrySet()) {
      String name = l.getKey();
      if (!LABEL_NAME.matcher(name).matches()) {
        report.add(kind, () -> RejectionReport.invalidLabelName(labels, name));
        return true;
      }
      if (name.length() > limits.maxLabelNameLength()) {
        report.add(kind, () -> RejectionReport.labelNameTooLong(labels, name));
        return true;
      }
      if (l.getValue().length() > limits.maxLabelValueLength()) {
        report.add(kind, () -> RejectionReport.labelValueTooLong(labels, l.getValue()));
        return true;
      }
    }
    return false;
  }

  /**
   * True when the distributor's validation refuses the entry, checked in Loki's order (age, line
   * size, structured metadata) after the fake's own marker rule; the reason goes to {@code report}.
   */
  private boolean rejectedByValidation(
      DecodedEntry e,
      Map<String, String> labels,
      List<EntryRejection> rejections,
      Bounds bounds,
      RejectionReport report) {
    for (EntryRejection r : rejections) {
      if (r.status() == 400 && e.line().contains(r.marker())) {
        report.add(RejectionReport.Kind.MARKER, () -> RejectionReport.marked(labels, r.marker()));
        return true;
      }
    }
    long ts = e.timestampNanos();
    if (ts < bounds.oldest()) {
      report.add(
          RejectionReport.Kind.TOO_OLD, () -> RejectionReport.tooOld(labels, ts, bounds.oldest()));
      return true;
    }
    if (ts > bounds.newest()) {
      report.add(RejectionReport.Kind.TOO_NEW, () -> RejectionReport.tooNew(labels, ts));
      return true;
    }
    int lineBytes = e.lineUtf8Length();
    if (limits.maxLineBytes() > 0 && lineBytes > limits.maxLineBytes()) {
      report.add(
          RejectionReport.Kind.LINE_TOO_LONG,
          () -> RejectionReport.lineTooLong(labels, limits.maxLineBytes(), lineBytes));
      return true;
    }
    return rejectedMetadata(e.metadata(), labels, report);
  }

  private boolean rejectedMetadata(
      Map<String, String> metadata, Map<String, String> labels, RejectionReport report) {
    RejectionReport.Kind kind = RejectionReport.Kind.STRUCTURED_METADATA;
    long size = 0; // Loki counts the UTF-8 bytes of names and values
    for (Map.Entry<String, String> m : metadata.entrySet()) {
      size += GoFormats.len(m.getKey()) + GoFormats.len(m.getValue());
    }
    if (size > limits.maxStructuredMetadataBytes()) {
      long bytes = size;
      report.add(
          kind,
          () ->
              RejectionReport.structuredMetadataTooLarge(
                  labels, bytes, limits.maxStructuredMetadataBytes()));
      return true;
    }
    if (metadata.size() > limits.maxStructuredMetadataEntries()) {
      report.add(
          kind,
          () ->
              RejectionReport.structuredMetadataTooMany(
                  labels, metadata.size(), limits.maxStructuredMetadataEntries()));
      return true;
    }
    return false;
  }

  synchronized List<AcceptedEntry> accepted() {
    return stored.accepted();
  }

  synchronized FakeLokiStats stats() {
    long live = streams.values().stream().filter(s -> s.newest != Long.MIN_VALUE).count();
    return new FakeLokiStats(live, stored.size(), bytes, duplicates, rejected);
  }

  synchronized void clear() {
    streams.clear();
    rates.clear();
    blockedUntil.clear();
    stored.clear();
    arena.clear();
    bytes = 0;
    duplicates = 0;
    rejected = 0;
  }
}
