package io.sf2loki.source.pubsub;

import com.salesforce.eventbus.protobuf.ConsumerEvent;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.shape.EventTimes;
import io.sf2loki.shape.Shaped;
import io.sf2loki.shape.Shaper;
import io.sf2loki.shape.TypeShaping;
import io.sf2loki.source.pubsub.decode.AvroPayloads;
import io.sf2loki.source.pubsub.decode.ChangeBitmaps;
import io.sf2loki.source.pubsub.decode.SchemaCache;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import java.io.IOException;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one received event into exactly one entry carrying the topic's position after it: the
 * shaped line, a checkpoint-only entry when transforms or sampling drop it, or, for a payload that
 * does not decode or names an unknown schema, a line holding the raw payload (base64) and the
 * reason, so nothing is lost and the position never moves past an undelivered event.
 */
final class EventEntries {

  private static final Logger LOG = LoggerFactory.getLogger(EventEntries.class);
  private static final List<String> TIME_FIELDS = List.of("EventDate", "CreatedDate");

  private final Shaper shaper;
  private final SchemaCache schemas;
  private final PubSubMetrics metrics;
  private final PubSubConfig config;
  private final Set<String> logged = ConcurrentHashMap.newKeySet();
  private final Map<String, Topic> topics = new ConcurrentHashMap<>();

  EventEntries(Shaper shaper, SchemaCache schemas, PubSubMetrics metrics, PubSubConfig config) {
    this.shaper = shaper;
    this.schemas = schemas;
    this.metrics = metrics;
    this.config = config;
  }

  /** The result for one event: its entry, and whether it decoded. */
  record Made(LogEntry entry, boolean decoded) {}

  /**
   * @throws Exception when the writer schema cannot be fetched now (a stream error: the caller
   *     resubscribes from the position before this event, skipping nothing)
   */
  Made entry(String topic, ConsumerEvent event) throws Exception {
    Topic t = topics.computeIfAbsent(topic, Topic::new);
    CheckpointToken token = new CheckpointToken(t.key, ReplayIds.encode(event.getReplayId()));
    TypeShaping type = t.type(t.eventType);
    Schema schema;
    Map<String, Object> payload;
    try {
      AvroPayloads.Reader reader = schemas.reader(event.getEvent().getSchemaId());
      schema = reader.schema();
      payload = reader.decode(event.getEvent().getPayload().toByteArray());
    } catch (SchemaCache.UnknownSchemaException e) {
      return new Made(raw(topic, type, event, token, "UnknownSchema", e.getMessage()), false);
    } catch (IOException e) {
      return new Made(raw(topic, type, event, token, "PayloadDecode", e.getMessage()), false);
    }
    if (t.channel) {
      // An RTEM custom channel carries up to 10 event types, each event under its own writer
      // schema: the member's type, not the channel, is what a query selects by.
      type = t.type(schema.getName());
    }
    try {
      ChangeBitmaps.expand(schema, payload);
    } catch (ChangeBitmaps.MalformedBitmapException e) {
      // the raw bitmaps stay in the line
      bad(topic, ReplayIds.hex(event.getReplayId()), "MalformedBitmap", e.getMessage());
    }
    Map<String, Object> fields = payload;
    Shaped shaped =
        shaper.shape(
            type,
            payload,
            (original, transformed) -> ReplayIds.hex(event.getReplayId()),
            () -> eventTime(fields));
    if (!(shaped instanceof Shaped.Kept kept)) {
      return new Made(LogEntry.checkpointOnly(token), true);
    }
    return new Made(kept.entry(Optional.of(token)), true);
  }

  /**
   * What is the same for every event of a topic, found once: the checkpoint key, the event type and
   * its shaping (the sample rate is a glob match over the configured topics).
   */
  private final class Topic {
    final String key;
    final String eventType;
    final boolean channel;
    final Map<String, TypeShaping> types = new ConcurrentHashMap<>();
    final String name;

    Topic(String name) {
      this.name = name;
      this.key = ReplayIds.key(name);
      this.eventType = eventType(name);
      this.channel = isEventChannel(name);
    }

    TypeShaping type(String eventType) {
      return types.computeIfAbsent(eventType, e -> shaping(name, e));
    }
  }

  private TypeShaping shaping(String topic, String eventType) {
    return new TypeShaping(eventType, Optional.empty(), List.of(), config.sampleRate(topic));
  }

  /** An RTEM custom event channel, {@code /event/<Name>__chn} (a PlatformEventChannel). */
  static boolean isEventChannel(String topic) {
    return topic.startsWith("/event/") && topic.endsWith("__chn");
  }

  /** {@code LoginEventStream} for {@code /event/LoginEventStream}. */
  static String eventType(String topic) {
    return topic.substring(topic.lastIndexOf('/') + 1);
  }

  private Instant eventTime(Map<String, Object> payload) {
    if (payload.get(ChangeBitmaps.HEADER) instanceof Map<?, ?> header) {
      Optional<Instant> commit = EventTimes.parse(header.get("commitTimestamp"));
      if (commit.isPresent()) {
        return commit.get();
      }
    }
    return shaper.eventTime(payload, TIME_FIELDS, Optional.empty());
  }

  private LogEntry raw(
      String topic,
      TypeShaping type,
      ConsumerEvent event,
      CheckpointToken token,
      String reason,
      String detail) {
    String hex = ReplayIds.hex(event.getReplayId());
    bad(topic, hex, reason, detail);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("decode_error", reason + ": " + detail);
    line.put("replay_id", hex);
    line.put("schema_id", event.getEvent().getSchemaId());
    line.put(
        "payload_base64",
        Base64.getEncoder().encodeToString(event.getEvent().getPayload().toByteArray()));
    Map<String, String> metadata = Map.of("level", "error");
    return LogEntry.of(
        EventTimes.epochNanos(shaper.eventTime(Map.of(), List.of(), Optional.empty())),
        shaper.labels(type, Map.of()),
        CanonicalJson.write(line),
        metadata,
        Optional.of(token));
  }

  private void bad(String topic, String hex, String reason, String detail) {
    metrics.decodeError(topic, reason);
    if (logged.add(topic + "|" + reason)) {
      LOG.error(
          "pubsub {}: event {} could not be decoded ({}: {}); shipped as a raw line, the stream"
              + " goes on (further ones are only counted in sf2loki_decode_errors)",
          topic,
          hex,
          reason,
          detail);
    }
  }
}
