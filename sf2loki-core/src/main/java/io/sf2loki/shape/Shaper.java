package io.sf2loki.shape;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.model.LabelSetMemo;
import io.sf2loki.model.StringMap;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns one record's top-level field map into a Loki entry by the shared rules, in this order:
 * transforms (a {@code drop_row} ends here), sampling, label promotion, structured metadata and
 * {@code level}, timestamp, canonical JSON line ({@code SecurityEventData} nested when it parses).
 * The original map is never modified: cursors advance from the original values.
 *
 * <p>Thread-safe; one per source run.
 */
public final class Shaper {

  private static final Duration CLAMP_AFTER = Duration.ofHours(1);
  private static final Duration CLAMP_TO = Duration.ofMinutes(5);

  /** The sampling key of a record, from its original and its transformed fields. */
  @FunctionalInterface
  public interface SampleKey {
    String of(Map<String, Object> original, Map<String, Object> transformed);
  }

  private final String source;
  private final ShapingConfig config;
  private final Map<String, String> deploymentLabels;
  private final Clock clock;
  private final MeterRegistry metrics;
  private final PromotedLabelGuard guard;
  private final Counter fallbacks;
  private final Counter unparsedSecurityData;
  // Distinct label sets seen, so every entry of a stream carries the same StringMap instance: the
  // pipeline groups and checks label sets by a memoised hash and identity, and a queued entry does
  // not hold its own copy. Bounded (the label guard already caps promoted values); past the bound a
  // set is used unshared.
  private final LabelSetMemo<StringMap> labelSets = new LabelSetMemo<>();
  // The label set of an event type's records that promote no label, built once per type: listing,
  // sorting and looking it up for every event was a twelfth of the Pub/Sub source thread's time
  // (docs/performance.md §4, fifth round).
  private final Map<String, StringMap> identityLabels = new ConcurrentHashMap<>();

  /**
   * @param source the {@code source} label and metric attribute
   * @param deploymentLabels static labels written under the identity labels
   */
  public Shaper(
      String source,
      ShapingConfig config,
      Map<String, String> deploymentLabels,
      Clock clock,
      MeterRegistry metrics) {
    this.source = Objects.requireNonNull(source, "source");
    this.config = Objects.requireNonNull(config, "config");
    this.deploymentLabels = Map.copyOf(deploymentLabels);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.guard = new PromotedLabelGuard(source, config.maxLabelValues(), metrics);
    this.fallbacks =
        Counter.builder("sf2loki_timestamp_fallbacks").tag("source", source).register(metrics);
    this.unparsedSecurityData =
        Counter.builder("sf2loki_security_event_data_unparsed")
            .description(
                "Threat Detection SecurityEventData values that are not JSON, kept in the line as"
                    + " the raw string")
            .tag("source", source)
            .register(metrics);
  }

  /** The shaping configuration. */
  public ShapingConfig config() {
    return config;
  }

  /**
   * Shapes one record.
   *
   * @param original the record's fields ({@code attributes} already removed); not modified
   * @param key the sampling key
   * @param timeFields the fields tried in order for the event time
   * @param fallback the time used when none of them parses (the watermark, the file's date)
   */
  public Shaped shape(
      TypeShaping type,
      Map<String, Object> original,
      SampleKey key,
      List<String> timeFields,
      Optional<Instant> fallback) {
    return shape(type, original, key, payload -> eventTime(payload, timeFields, fallback));
  }

  /**
   * Shapes one record whose event time the source finds itself (from the original fields, or from
   * what it received with them); {@code time} is asked only for a record that is kept, so a source
   * counts its own fallbacks.
   */
  public Shaped shape(
      TypeShaping type, Map<String, Object> original, SampleKey key, Supplier<Instant> time) {
    return shape(type, original, key, payload -> time.get());
  }

  private Shaped shape(
      TypeShaping type,
      Map<String, Object> original,
      SampleKey key,
      Function<Map<String, Object>, Instant> time) {
    // Transforms and the SecurityEventData expansion rewrite the payload in place; the caller's map
    // is copied only when one of them can: the copy was a tenth of the Pub/Sub source thread's
    // time (docs/performance.md §4, fifth round). Same entries, same order, same line.
    Map<String, Object> payload =
        config.transforms().anyApplyTo(type.eventType())
                || original.get(WellKnownFields.SECURITY_EVENT_DATA) instanceof String
            ? new LinkedHashMap<>(original)
            : original;
    Optional<String> dropped = transform(type.eventType(), payload);
    if (dropped.isPresent()) {
      return new Shaped.Dropped(dropped.get());
    }
    // The key is only read when sampling is on: building it (a replay id's hex) is per event.
    if (type.sampleRate() < 1.0 && !sampledIn(type, key.of(original, payload))) {
      return new Shaped.SampledOut();
    }
    if (WellKnownFields.expandSecurityEventData(payload) == WellKnownFields.Expansion.UNPARSED) {
      unparsedSecurityData.increment(); // kept as the raw string, so nothing is lost
    }
    return new Shaped.Kept(
        time.apply(payload),
        labels(type, payload),
        CanonicalJson.write(payload),
        metadata(type, payload));
  }

  /** Applies the transforms in place; a drop is counted and names its rule. */
  public Optional<String> transform(String eventType, Map<String, Object> payload) {
    Optional<String> dropped = config.transforms().apply(eventType, payload);
    dropped.ifPresent(
        rule ->
            Counter.builder("sf2loki_rows_filtered")
                .tag("source", source)
                .tag("rule", rule)
                .register(metrics)
                .increment());
    return dropped;
  }

  /** True when sampling keeps the record; a sampled-out one is counted. */
  public boolean sampledIn(TypeShaping type, String key) {
    if (Sampler.keep(key, type.sampleRate())) {
      return true;
    }
    Counter.builder("sf2loki_entries_sampled_out")
        .tag("source", source)
        .tag("event_type", type.eventType())
        .register(metrics)
        .increment();
    return false;
  }

  /**
   * Promoted labels (guarded), then deployment labels, then {@code source} and {@code event_type}.
   */
  public StringMap labels(TypeShaping type, Map<String, Object> payload) {
    Map<String, String> labels = null;
    for (String field : type.labels()) {
      Object v = payload.get(field);
      if (v != null) {
        String value = CanonicalJson.stringForm(v);
        if (!value.isEmpty() && guard.admit(field, value)) {
          if (labels == null) {
            labels = new LinkedHashMap<>();
          }
          labels.put(field, value);
        }
      }
    }
    if (labels == null && identityLabels.size() < LabelSetMemo.MAX_SETS) {
      return identityLabels.computeIfAbsent(
          type.eventType(), eventType -> labelSet(new LinkedHashMap<>(), eventType));
    }
    return labelSet(labels == null ? new LinkedHashMap<>() : labels, type.eventType());
  }

  private StringMap labelSet(Map<String, String> labels, String eventType) {
    labels.putAll(deploymentLabels);
    labels.put("source", source);
    labels.put("event_type", eventType);
    return labelSets.get(StringMap.of(labels), set -> set); // one shared instance per stream
  }

  /**
   * The configured top-level fields that are present and non-null, the {@link WellKnownFields}
   * ({@code request_id}, {@code trace_id}, {@code score}, {@code severity}, {@code
   * anomaly_sub_type}), then {@code level}.
   */
  public Map<String, String> metadata(TypeShaping type, Map<String, Object> payload) {
    Map<String, String> metadata = new LinkedHashMap<>();
    for (String field : type.metadataFields().orElse(config.metadataFields())) {
      Object v = payload.get(field);
      if (v != null) {
        metadata.put(field, CanonicalJson.stringForm(v));
      }
    }
    WellKnownFields.addMetadata(payload, metadata);
    metadata.put("level", Levels.of(payload));
    return metadata;
  }

  /**
   * The first of {@code fields} that parses; otherwise the fallback (replaced by now − 5 min when
   * it is older than 1 h, to stay inside Loki's out-of-order window) or now, counted in {@code
   * sf2loki_timestamp_fallbacks}.
   */
  public Instant eventTime(
      Map<String, Object> payload, List<String> fields, Optional<Instant> fallback) {
    for (String field : fields) {
      Optional<Instant> t = EventTimes.parse(payload.get(field));
      if (t.isPresent()) {
        return t.get();
      }
    }
    fallbacks.increment();
    Instant now = clock.instant();
    if (fallback.isEmpty()) {
      return now;
    }
    return fallback.get().isBefore(now.minus(CLAMP_AFTER)) ? now.minus(CLAMP_TO) : fallback.get();
  }
}
