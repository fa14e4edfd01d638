package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * One topic's append-only event log: 8-byte big-endian replay ids with random gaps, a retention
 * window on the fake's clock, the topic's current schema and the schemas of its past events.
 * Thread-safe.
 */
final class TopicLog {

  /**
   * A stored position: an event, or a marker (another org's traffic) that only moves the stream's
   * position.
   */
  record Stored(
      long id, String schemaId, byte[] payload, String eventId, Instant at, boolean marker) {

    ByteString replayId() {
      return TopicLog.replayId(id);
    }
  }

  private final String name;
  private final Clock clock;
  private final Duration retention;
  private final Random random;
  // Entries before head are past retention; they are dropped from the list in one move once they
  // are half of it, not on every purge: a topic holding millions of events (a ceiling benchmark)
  // would otherwise shift them all on each fetch.
  private final List<Stored> log = new ArrayList<>();
  private int head;
  // The id is a fingerprint of the whole schema: computed once per schema, not once per publish,
  // or the fake's publisher spends half its CPU on it and competes with the subscriber it serves.
  private volatile Current current;
  private volatile boolean canSubscribe = true;
  private long nextId;

  TopicLog(String name, Schema schema, Clock clock, Duration retention, Random random) {
    this.name = name;
    this.current = new Current(schema);
    this.clock = clock;
    this.retention = retention;
    this.random = random;
    this.nextId = 1000 + random.nextInt(1000);
  }

  String name() {
    return name;
  }

  Schema schema() {
    return current.schema();
  }

  /** The current schema's id ({@link TopicSchemas#schemaId}). */
  String schemaId() {
    return current.id();
  }

  /** The current schema, its id and writer read together (an evolution replaces all three). */
  Current current() {
    return current;
  }

  void schema(Schema next) {
    this.current = new Current(next);
  }

  /** The topic's current schema with its id and writer, computed once per schema. */
  record Current(Schema schema, String id, GenericDatumWriter<GenericRecord> writer) {
    Current(Schema schema) {
      this(schema, TopicSchemas.schemaId(schema), new GenericDatumWriter<>(schema));
    }

    byte[] encode(Map<String, ?> fields) {
      return TopicSchemas.encode(writer, schema, fields);
    }
  }

  boolean canSubscribe() {
    return canSubscribe;
  }

  void canSubscribe(boolean v) {
    this.canSubscribe = v;
  }

  synchronized Stored append(String schemaId, byte[] payload, String eventId, boolean marker) {
    nextId += 1 + random.nextInt(7);
    Stored s = new Stored(nextId, schemaId, payload, eventId, clock.instant(), marker);
    log.add(s);
    notifyAll();
    return s;
  }

  /** Org migration: every stored id becomes unknown and the ids start again lower. */
  synchronized void migrate() {
    log.clear();
    head = 0;
    nextId = random.nextInt(500);
  }

  /** The position just before the oldest retained entry (EARLIEST). */
  synchronized long earliest() {
    purge();
    return head == log.size() ? nextId : log.get(head).id() - 1;
  }

  /** The tip (LATEST): new events only. */
  synchronized long latest() {
    return head == log.size() ? nextId : log.get(log.size() - 1).id();
  }

  /** The position of a stored replay id, or empty when it is unknown, purged or malformed. */
  synchronized Optional<Long> positionOf(ByteString replayId) {
    if (replayId.size() != 8) {
      return Optional.empty();
    }
    purge();
    long id = ByteBuffer.wrap(replayId.toByteArray()).getLong();
    int i = indexAfter(id - 1);
    return i < log.size() && log.get(i).id() == id ? Optional.of(id) : Optional.empty();
  }

  /**
   * Whether {@code id} is a position a stream can still start after: between the oldest retained
   * entry's predecessor and the tip (a managed subscription's committed id).
   */
  synchronized boolean holds(long id) {
    return id >= earliest() && id <= latest();
  }

  /** Up to {@code max} entries after {@code position}, markers included. */
  synchronized List<Stored> after(long position, int max) {
    purge();
    int i = indexAfter(position);
    return List.copyOf(log.subList(i, Math.min(log.size(), i + max)));
  }

  /** Waits up to {@code millis} for an append. */
  synchronized void awaitAppend(long millis) throws InterruptedException {
    wait(millis);
  }

  synchronized int size() {
    return log.size() - head;
  }

  static ByteString replayId(long id) {
    return ByteString.copyFrom(ByteBuffer.allocate(8).putLong(id).array());
  }

  private int indexAfter(long position) {
    int lo = head;
    int hi = log.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (log.get(mid).id() <= position) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private void purge() {
    Instant horizon = clock.instant().minus(retention);
    while (head < log.size() && log.get(head).at().isBefore(horizon)) {
      head++;
    }
    if (head > 0 && head >= log.size() - head) {
      log.subList(0, head).clear();
      head = 0;
    }
  }
}
