package io.sf2loki.connect;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LabelSetMemo;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * How an entry travels through Kafka (docs/deployment/kafka-connect.md, "Record schema"): the key
 * is the entry's Loki stream ({@code {job="sf2loki",...}}), so one stream stays in one partition
 * and in order; the value a struct of the Loki entry; the record's timestamp the entry's, in
 * milliseconds. The source partition is the org and the checkpoint key, the source offset the
 * checkpoint token.
 */
final class EntryRecords {

  /** Source partition field: the org's name ({@code default} for a single-org configuration). */
  static final String ORG = "org";

  /** Source partition field: the checkpoint key ({@code eventlogfile:Login}, ...). */
  static final String KEY = "key";

  /** Source offset field: the checkpoint token, opaque to Connect. */
  static final String TOKEN = "token";

  /** Header of a record that only advances a checkpoint; its key and value are null. */
  static final String CHECKPOINT_ONLY_HEADER = "sf2loki.checkpoint_only";

  static final Schema LABELS =
      SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).name("sf2loki.Labels").build();

  /** Version 1 of the value: what a consumer needs to rebuild the Loki entry. */
  static final Schema VALUE =
      SchemaBuilder.struct()
          .name("io.sf2loki.LogEntry")
          .version(1)
          .doc("One Loki entry: stream labels, structured metadata, line and timestamp")
          .field("timestamp_ns", Schema.INT64_SCHEMA)
          .field("labels", LABELS)
          .field("structured_metadata", LABELS)
          .field("line", Schema.STRING_SCHEMA)
          .build();

  /**
   * The key of each label set: a source shares one label set per stream, so the key is built once
   * per stream, not once per entry. A pure function of the labels, so one memo serves every task.
   */
  private static final LabelSetMemo<String> STREAMS = new LabelSetMemo<>();

  private EntryRecords() {}

  /**
   * The source partition of {@code key} of {@code org}, its fields in the order {@code org}, {@code
   * key}. Connect finds a committed offset by the partition's serialized bytes, so the order must
   * be the same in every worker; {@code Map.of}'s order differs from one JVM to the next, and a
   * task moved to another worker then found no offset and read its org again from the lookback.
   */
  static Map<String, String> partition(String org, String key) {
    Map<String, String> partition = new LinkedHashMap<>();
    partition.put(ORG, org);
    partition.put(KEY, key);
    return Collections.unmodifiableMap(partition);
  }

  /**
   * The same partition with its fields in the other order, {@code key} first: where a worker of a
   * connector built before the order was fixed may have committed the offset.
   */
  static Map<String, String> partitionKeyFirst(String org, String key) {
    Map<String, String> partition = new LinkedHashMap<>();
    partition.put(KEY, key);
    partition.put(ORG, org);
    return Collections.unmodifiableMap(partition);
  }

  /** The token a committed offset carries, if it is one of ours. */
  static Optional<String> token(Map<String, ?> offset) {
    return offset != null && offset.get(TOKEN) instanceof String token
        ? Optional.of(token)
        : Optional.empty();
  }

  /** The record of {@code entry} on {@code topic}, its value the struct. */
  static SourceRecord of(String org, String topic, LogEntry entry) {
    return of(org, topic, entry, RecordFormat.STRUCT);
  }

  /**
   * The record of {@code entry} on {@code topic}, its value in {@code format}. An entry without a
   * checkpoint gets a null partition and offset: Connect then commits nothing for it (none is due).
   */
  static SourceRecord of(String org, String topic, LogEntry entry, RecordFormat format) {
    Map<String, String> partition = null;
    Map<String, String> offset = null;
    Optional<CheckpointToken> checkpoint = entry.checkpoint();
    if (checkpoint.isPresent()) {
      partition = partition(org, checkpoint.get().key());
      offset = Map.of(TOKEN, checkpoint.get().value());
    }
    if (entry.isCheckpointOnly()) {
      // a record after every earlier one of its key, so its offset is committed only after them
      ConnectHeaders headers = new ConnectHeaders();
      headers.addBoolean(CHECKPOINT_ONLY_HEADER, true);
      return new SourceRecord(
          partition, offset, topic, null, null, null, null, null, null, headers);
    }
    long millis = entry.timestampNanos() / 1_000_000;
    return new SourceRecord(
        partition,
        offset,
        topic,
        null,
        Schema.STRING_SCHEMA,
        STREAMS.get(entry.labels(), EntryRecords::stream),
        format == RecordFormat.JSON ? Schema.BYTES_SCHEMA : VALUE,
        format == RecordFormat.JSON ? EntryJson.write(entry) : value(entry),
        millis);
  }

  static Struct value(LogEntry entry) {
    return new Struct(VALUE)
        .put("timestamp_ns", entry.timestampNanos())
        // immutable and sorted already: no copy, and converters write the keys in order
        .put("labels", entry.labels())
        .put("structured_metadata", entry.metadata())
        .put("line", entry.line());
  }

  /**
   * The stream selector Loki shows for {@code labels}: sorted, values quoted with {@code \} and
   * {@code "} escaped.
   */
  static String stream(StringMap labels) {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < labels.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(labels.keyAt(i)).append("=\"");
      String value = labels.valueAt(i);
      for (int c = 0; c < value.length(); c++) {
        char ch = value.charAt(c);
        if (ch == '"' || ch == '\\') {
          out.append('\\');
        }
        out.append(ch);
      }
      out.append('"');
    }
    return out.append('}').toString();
  }
}
