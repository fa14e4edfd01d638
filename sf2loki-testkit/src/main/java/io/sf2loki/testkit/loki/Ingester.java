package io.sf2loki.testkit.loki;

import java.time.Clock;
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
 */
final class Ingester {

  private static final Pattern LABEL_NAME = Pattern.compile("^[a-zA-Z_][a-zA-Z0-9_]*$");
  private static final int MAX_REASONS = 5;

  /**
   * What a push came to: the status to answer, the text body, and the request's streams as kept for
   * {@link RecordedPush} (lines in the arena, so the decoded body is not retained; empty when
   * requests are not kept).
   */
  record Outcome(int status, String message, List<DecodedStream> streams) {}

  private final LokiLimits limits;
  private final Clock clock;
  private final boolean keepRequests;
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
    this.limits = limits;
    this.clock = clock;
    this.keepRequests = keepRequests;
  }

  synchronized Outcome ingest(List<DecodedStream> decoded, List<EntryRejection> rejections) {
    for (EntryRejection r : rejections) {
      if (r.status() == 413 && containsMarker(decoded, r.marker())) {
        rejected += decoded.stream().mapToLong(s -> s.entries().size()).sum();
        String message = "request contains an entry marked '" + r.marker() + "'";
        return new Outcome(413, message, keepRequests ? keepAll(decoded) : List.of());
      }
    }
    Instant now = clock.instant();
    long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    List<String> reasons = new ArrayList<>();
    List<DecodedStream> kept = keepRequests ? new ArrayList<>(decoded.size()) : List.of();
    for (DecodedStream s : decoded) {
      List<DecodedEntry> keptEntries = keepRequests ? new ArrayList<>(s.entries().size()) : null;
      String labelError = labelError(s.labels());
      if (labelError != null) {
        rejected += s.entries().size();
        addReason(reasons, labelError + " for stream " + s.labels());
        if (keepRequests) {
          s.entries().forEach(e -> keptEntries.add(copied(e)));
        }
      } else {
        StoredEntries.Stream stream =
            streams.computeIfAbsent(s.labels(), StoredEntries.Stream::new);
        for (DecodedEntry e : s.entries()) {
          int slot = -1;
          String error = entryError(e, stream, rejections, nowNanos);
          if (error != null) {
            rejected++;
            addReason(reasons, error + " for stream " + s.labels());
          } else {
            slot = store(stream, e);
          }
          if (keepRequests) {
            keptEntries.add(slot >= 0 ? stored.entry(slot) : copied(e));
          }
        }
      }
      if (keepRequests) {
        kept.add(new DecodedStream(s.labels(), keptEntries));
      }
    }
    return reasons.isEmpty()
        ? new Outcome(204, "", kept)
        : new Outcome(400, String.join("\n", reasons) + "\n", kept);
  }

  /** Stores a valid entry unless it duplicates one; its slot, or -1 for a duplicate. */
  private int store(StoredEntries.Stream stream, DecodedEntry e) {
    int slot =
        stored.add(
            stream,
            e.timestampNanos(),
            e.lineArray(),
            e.lineOffset(),
            e.lineUtf8Length(),
            PackedPairs.pack(e.metadata()));
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

  private static void addReason(List<String> reasons, String reason) {
    if (reasons.size() < MAX_REASONS) {
      reasons.add(reason);
    }
  }

  private String labelError(Map<String, String> labels) {
    if (labels.isEmpty()) {
      return "missing_labels: error at least one label pair is required per stream";
    }
    if (labels.size() > limits.maxLabelNamesPerSeries()) {
      return "max_label_names_per_series: " + labels.size() + " labels";
    }
    for (Map.Entry<String, String> l : labels.entrySet()) {
      if (!LABEL_NAME.matcher(l.getKey()).matches()) {
        return "invalid_labels: label name '" + l.getKey() + "'";
      }
      if (l.getKey().length() > limits.maxLabelNameLength()) {
        return "label_name_too_long: '" + l.getKey() + "'";
      }
      if (l.getValue().length() > limits.maxLabelValueLength()) {
        return "label_value_too_long: value of '" + l.getKey() + "'";
      }
    }
    return null;
  }

  private String entryError(
      DecodedEntry e, StoredEntries.Stream stream, List<EntryRejection> rejections, long now) {
    int lineBytes = e.lineUtf8Length();
    for (EntryRejection r : rejections) {
      if (r.status() == 400 && e.line().contains(r.marker())) {
        return "bad_request: entry marked '" + r.marker() + "'";
      }
    }
    if (limits.maxLineBytes() > 0 && lineBytes > limits.maxLineBytes()) {
      return "line_too_long: line of " + lineBytes + " bytes exceeds " + limits.maxLineBytes();
    }
    String smError = metadataError(e.metadata());
    if (smError != null) {
      return smError;
    }
    if (e.timestampNanos() < now - limits.rejectOldSamplesMaxAge().toNanos()) {
      return "greater_than_max_sample_age: entry at " + e.timestampNanos();
    }
    if (e.timestampNanos() > now + limits.creationGracePeriod().toNanos()) {
      return "too_far_in_future: entry at " + e.timestampNanos();
    }
    if (stream.newest != Long.MIN_VALUE
        && e.timestampNanos() < stream.newest - limits.outOfOrderWindow().toNanos()) {
      return "too_far_behind: entry at " + e.timestampNanos() + " behind " + stream.newest;
    }
    return null;
  }

  private String metadataError(Map<String, String> metadata) {
    if (metadata.size() > limits.maxStructuredMetadataEntries()) {
      return "structured_metadata_too_many: " + metadata.size() + " pairs";
    }
    long size = 0;
    for (Map.Entry<String, String> m : metadata.entrySet()) {
      size += m.getKey().length() + m.getValue().length();
    }
    if (size > limits.maxStructuredMetadataBytes()) {
      return "structured_metadata_too_large: " + size + " bytes";
    }
    return null;
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
    stored.clear();
    arena.clear();
    bytes = 0;
    duplicates = 0;
    rejected = 0;
  }
}
