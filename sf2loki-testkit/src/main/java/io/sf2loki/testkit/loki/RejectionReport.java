package io.sf2loki.testkit.loki;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The body of a 400 answer to a push with rejected entries, in Grafana Loki's own texts, so a
 * client parses it as it would a real Loki's. First, when the <em>last</em> stream of the request
 * that reached the ingester had entries behind the out-of-order window, the block Loki's ingester
 * writes for it (like Loki, nothing about an earlier stream's): one line per entry, at most {@link
 * #MAX_RETURNED_STREAM_ERRORS}, and a {@code total ignored} line with the true count. Then the
 * distributor's validation errors, one a line, each kind listed at most {@link #MAX_PER_KIND}
 * times. The blocks come first because a real Loki answers with the ingester's error alone when
 * there is one (its distributor drops its own validation errors then), so a client that reads the
 * first reason reads the one Loki would have given. One report per push; not thread-safe.
 */
final class RejectionReport {

  /** The distributor's validation error kinds, each capped on its own. */
  enum Kind {
    LABELS,
    MARKER,
    TOO_OLD,
    TOO_NEW,
    LINE_TOO_LONG,
    STRUCTURED_METADATA
  }

  /** Listed reasons per kind: a flood of one kind does not hide the others. */
  static final int MAX_PER_KIND = 5;

  /** Loki's {@code ingester.max_returned_stream_errors} default. */
  static final int MAX_RETURNED_STREAM_ERRORS = 10;

  /** Loki's tenant when it runs single-tenant ({@code auth_enabled: false}). */
  static final String SINGLE_TENANT = "fake";

  private final List<String> reasons = new ArrayList<>();
  private final int[] perKind = new int[Kind.values().length];
  private final List<String> blocks = new ArrayList<>();

  /** Records a validation error; the message is only built while its kind is under the cap. */
  void add(Kind kind, Supplier<String> message) {
    if (perKind[kind.ordinal()]++ < MAX_PER_KIND) {
      reasons.add(message.get());
    }
  }

  /**
   * Records one stream's entries behind the window.
   *
   * @param tenant the request's tenant
   * @param labels the stream's labels
   * @param entries the stream's entries that passed validation and reached the ingester
   */
  void add(TooFarBehind behind, String tenant, Map<String, String> labels, int entries) {
    blocks.add(
        behind.listed
            + "user '"
            + tenant
            + "', total ignored: "
            + behind.count
            + " out of "
            + entries
            + " for stream: "
            + GoFormats.labels(labels));
  }

  boolean isEmpty() {
    return reasons.isEmpty() && blocks.isEmpty();
  }

  /** The body: the ingester's blocks, then the validation errors, each ending with a newline. */
  String body() {
    StringBuilder b = new StringBuilder();
    blocks.forEach(r -> b.append(r).append('\n'));
    reasons.forEach(r -> b.append(r).append('\n'));
    return b.toString();
  }

  /** One stream's entries older than its newest timestamp minus the out-of-order window. */
  static final class TooFarBehind {
    private final StringBuilder listed = new StringBuilder();
    private int count;

    /** An entry at {@code entryNanos} refused because the oldest acceptable is {@code cutoff}. */
    void add(long entryNanos, long cutoffNanos) {
      if (count++ < MAX_RETURNED_STREAM_ERRORS) {
        listed
            .append("entry with timestamp ")
            .append(GoFormats.timeString(entryNanos))
            .append(" ignored, reason: 'entry too far behind, entry timestamp is: ")
            .append(GoFormats.rfc3339(entryNanos))
            .append(", oldest acceptable timestamp is: ")
            .append(GoFormats.rfc3339(cutoffNanos))
            .append("',\n");
      }
    }
  }

  // Loki's validation messages (pkg/validation/validate.go), labels as labels.String() prints them.

  static String tooOld(Map<String, String> labels, long entryNanos, long oldestNanos) {
    return "entry for stream '"
        + GoFormats.labels(labels)
        + "' has timestamp too old: "
        + GoFormats.rfc3339(entryNanos)
        + ", oldest acceptable timestamp is: "
        + GoFormats.rfc3339(oldestNanos);
  }

  static String tooNew(Map<String, String> labels, long entryNanos) {
    return "entry for stream '"
        + GoFormats.labels(labels)
        + "' has timestamp too new: "
        + GoFormats.rfc3339(entryNanos);
  }

  static String lineTooLong(Map<String, String> labels, int limit, int length) {
    return "Max entry size '"
        + limit
        + "' bytes exceeded for stream '"
        + GoFormats.labels(labels)
        + "' while adding an entry with length '"
        + length
        + "' bytes";
  }

  static String structuredMetadataTooLarge(Map<String, String> labels, long size, int limit) {
    return "stream '"
        + GoFormats.labels(labels)
        + "' has structured metadata too large: '"
        + size
        + "' bytes, limit: '"
        + limit
        + "' bytes. Please see `limits_config.max_structured_metadata_size` or contact your"
        + " Loki administrator to increase it";
  }

  static String structuredMetadataTooMany(Map<String, String> labels, int count, int limit) {
    return "stream '"
        + GoFormats.labels(labels)
        + "' has too many structured metadata labels: '"
        + count
        + "', limit: '"
        + limit
        + "'. Please see `limits_config.max_structured_metadata_entries_count` or contact your"
        + " Loki administrator to increase it";
  }

  /** The fake's own rule ({@link EntryRejection}), worded like Loki's per-entry errors. */
  static String marked(Map<String, String> labels, String marker) {
    return "entry for stream '"
        + GoFormats.labels(labels)
        + "' has a line containing the rejection marker '"
        + marker
        + "'";
  }

  static String missingLabels() {
    return "error at least one label pair is required per stream";
  }

  static String tooManyLabelNames(Map<String, String> labels, int counted, int limit) {
    return "entry for stream '"
        + GoFormats.labels(labels)
        + "' has "
        + counted
        + " label names; limit "
        + limit;
  }

  /**
   * Loki 3.2's answer for a blocked tenant ({@code block_ingestion_until}), with the time as Go's
   * {@code time.RFC3339} prints it.
   */
  static String ingestionBlocked(String tenant, java.time.Instant until, int status) {
    return "ingestion blocked for user '"
        + tenant
        + "' until '"
        + java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(
            until
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .atOffset(java.time.ZoneOffset.UTC))
        + "' with status code '"
        + status
        + "'";
  }

  static String invalidLabelName(Map<String, String> labels, String name) {
    return "Error parsing labels '"
        + GoFormats.labels(labels)
        + "' with error: invalid label name "
        + GoFormats.quote(name);
  }

  static String labelNameTooLong(Map<String, String> labels, String name) {
    return "stream '" + GoFormats.labels(labels) + "' has label name too long: '" + name + "'";
  }

  static String labelValueTooLong(Map<String, String> labels, String value) {
    return "stream '" + GoFormats.labels(labels) + "' has label value too long: '" + value + "'";
  }
}
