package io.sf2loki.source.pubsub;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** The Pub/Sub source's meters (docs/observability/metrics.md). Thread-safe. */
final class PubSubMetrics {

  static final String SOURCE = PubSubSource.SOURCE;

  private final MeterRegistry registry;
  private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();

  PubSubMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** {@code sf2loki_schema_cache_size}. */
  void schemaCache(Supplier<Number> size) {
    Gauge.builder("sf2loki_schema_cache_size", () -> size.get().doubleValue()).register(registry);
  }

  /** {@code sf2loki_pubsub_pending_credits{topic}}. */
  void pendingCredits(String topic, int pending) {
    gauge("sf2loki_pubsub_pending_credits", topic).set(pending);
  }

  /** {@code sf2loki_pubsub_stream_up{topic}}. */
  void streamUp(String topic, boolean up) {
    gauge("sf2loki_pubsub_stream_up", topic).set(up ? 1 : 0);
  }

  /** {@code sf2loki_pubsub_position_age_seconds{topic}}: age of the committed position. */
  void positionAge(String topic, long seconds) {
    gauge("sf2loki_pubsub_position_age_seconds", topic).set(seconds);
  }

  /** {@code sf2loki_pubsub_events_received{topic}}. */
  void received(String topic, int events) {
    counter("sf2loki_pubsub_events_received", "topic", topic).increment(events);
  }

  /** {@code sf2loki_pubsub_stream_stalls{topic}}: the watchdog fired. */
  void stall(String topic) {
    counter("sf2loki_pubsub_stream_stalls", "topic", topic).increment();
  }

  /** {@code sf2loki_pubsub_reconnects{topic}}: from the second attempt on. */
  void reconnect(String topic) {
    counter("sf2loki_pubsub_reconnects", "topic", topic).increment();
  }

  /** {@code sf2loki_pubsub_stream_errors{topic,code}}. */
  void streamError(String topic, String code) {
    counter("sf2loki_pubsub_stream_errors", "topic", topic, "code", code).increment();
  }

  /** {@code sf2loki_pubsub_auth_refreshes{topic}}. */
  void authRefresh(String topic) {
    counter("sf2loki_pubsub_auth_refreshes", "topic", topic).increment();
  }

  /** {@code sf2loki_pubsub_replay_fallbacks{topic}}: a corrupt id, resumed from EARLIEST. */
  void replayFallback(String topic) {
    counter("sf2loki_pubsub_replay_fallbacks", "topic", topic).increment();
  }

  /** {@code sf2loki_decode_errors{reason,topic}}. */
  void decodeError(String topic, String reason) {
    counter("sf2loki_decode_errors", "reason", reason, "topic", topic).increment();
  }

  /** {@code sf2loki_pubsub_decode_stalls{topic}}: a streak of failing batches or schemas. */
  void decodeStall(String topic) {
    counter("sf2loki_pubsub_decode_stalls", "topic", topic).increment();
  }

  /** {@code sf2loki_pubsub_topics_refused{topic}}: GetTopic says the user may not subscribe. */
  void refused(String topic) {
    counter("sf2loki_pubsub_topics_refused", "topic", topic).increment();
  }

  /** {@code sf2loki_pubsub_commit_errors{topic}}: a managed subscription refused a commit. */
  void commitError(String topic) {
    counter("sf2loki_pubsub_commit_errors", "topic", topic).increment();
  }

  /** {@code sf2loki_checkpoint_load_errors{source=pubsub}}. */
  void checkpointLoadError() {
    counter("sf2loki_checkpoint_load_errors", "source", SOURCE).increment();
  }

  private Counter counter(String name, String... tags) {
    return Counter.builder(name).tags(tags).register(registry);
  }

  private AtomicLong gauge(String name, String topic) {
    return gauges.computeIfAbsent(
        name + "|" + topic,
        k -> {
          AtomicLong v = new AtomicLong();
          Gauge.builder(name, v, AtomicLong::doubleValue).tag("topic", topic).register(registry);
          return v;
        });
  }
}
