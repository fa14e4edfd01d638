package io.sf2loki.testkit.loki;

import java.time.Duration;

/**
 * The server-side limits the fake enforces, Loki's {@code limits_config} defaults unless changed.
 *
 * @param maxLineBytes {@code max_line_size}: longer lines are rejected ({@code line_too_long})
 * @param maxLabelNamesPerSeries {@code max_label_names_per_series}
 * @param maxLabelNameLength {@code max_label_name_length}
 * @param maxLabelValueLength {@code max_label_value_length}
 * @param maxStructuredMetadataBytes structured metadata bytes per entry
 * @param maxStructuredMetadataEntries structured metadata pairs per entry
 * @param rejectOldSamplesMaxAge {@code reject_old_samples_max_age}
 * @param creationGracePeriod {@code creation_grace_period}
 * @param outOfOrderWindow entries older than the stream's newest minus this are {@code
 *     too_far_behind} (Loki: {@code max_chunk_age / 2})
 * @param maxRequestBytes decompressed request bodies larger than this get 413
 */
public record LokiLimits(
    int maxLineBytes,
    int maxLabelNamesPerSeries,
    int maxLabelNameLength,
    int maxLabelValueLength,
    int maxStructuredMetadataBytes,
    int maxStructuredMetadataEntries,
    Duration rejectOldSamplesMaxAge,
    Duration creationGracePeriod,
    Duration outOfOrderWindow,
    int maxRequestBytes) {

  /** Loki's defaults (loki-push.md §7), with an 8 MiB request cap. */
  public static LokiLimits defaults() {
    return new LokiLimits(
        256 * 1024,
        15,
        1024,
        2048,
        64 * 1024,
        128,
        Duration.ofHours(168),
        Duration.ofMinutes(10),
        Duration.ofHours(1),
        8 * 1024 * 1024);
  }

  /** A copy with another line cap. */
  public LokiLimits withMaxLineBytes(int bytes) {
    return new LokiLimits(
        bytes,
        maxLabelNamesPerSeries,
        maxLabelNameLength,
        maxLabelValueLength,
        maxStructuredMetadataBytes,
        maxStructuredMetadataEntries,
        rejectOldSamplesMaxAge,
        creationGracePeriod,
        outOfOrderWindow,
        maxRequestBytes);
  }

  /** A copy with another request cap. */
  public LokiLimits withMaxRequestBytes(int bytes) {
    return new LokiLimits(
        maxLineBytes,
        maxLabelNamesPerSeries,
        maxLabelNameLength,
        maxLabelValueLength,
        maxStructuredMetadataBytes,
        maxStructuredMetadataEntries,
        rejectOldSamplesMaxAge,
        creationGracePeriod,
        outOfOrderWindow,
        bytes);
  }

  /** A copy with another out-of-order window (Loki: {@code max_chunk_age / 2}). */
  public LokiLimits withOutOfOrderWindow(Duration window) {
    return new LokiLimits(
        maxLineBytes,
        maxLabelNamesPerSeries,
        maxLabelNameLength,
        maxLabelValueLength,
        maxStructuredMetadataBytes,
        maxStructuredMetadataEntries,
        rejectOldSamplesMaxAge,
        creationGracePeriod,
        window,
        maxRequestBytes);
  }

  /** A copy with another {@code creation_grace_period}. */
  public LokiLimits withCreationGracePeriod(Duration period) {
    return new LokiLimits(
        maxLineBytes,
        maxLabelNamesPerSeries,
        maxLabelNameLength,
        maxLabelValueLength,
        maxStructuredMetadataBytes,
        maxStructuredMetadataEntries,
        rejectOldSamplesMaxAge,
        period,
        outOfOrderWindow,
        maxRequestBytes);
  }

  /** A copy with another {@code reject_old_samples_max_age}. */
  public LokiLimits withRejectOldSamplesMaxAge(Duration maxAge) {
    return new LokiLimits(
        maxLineBytes,
        maxLabelNamesPerSeries,
        maxLabelNameLength,
        maxLabelValueLength,
        maxStructuredMetadataBytes,
        maxStructuredMetadataEntries,
        maxAge,
        creationGracePeriod,
        outOfOrderWindow,
        maxRequestBytes);
  }
}
