package io.sf2loki.source.pubsub.decode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Schemaless Avro binary, decoded with the writer schema as both writer and reader schema, to the
 * maps the shaping rules take: unions unwrap to their value, records become nested maps, {@code
 * Utf8} becomes a string, enums their symbol, {@code bytes}/{@code fixed} standard base64, and
 * datetimes stay epoch-millisecond numbers.
 */
public final class AvroPayloads {

  private AvroPayloads() {}

  /**
   * Decodes {@code payload}.
   *
   * @throws IOException when it does not decode with {@code schema} (truncated, garbled, trailing
   *     bytes) or the result is not a record
   */
  public static Map<String, Object> decode(Schema schema, byte[] payload) throws IOException {
    return new Reader(schema).decode(payload);
  }

  /**
   * The decoder of one writer schema, kept with the schema ({@link SchemaCache}): building Avro's
   * reader resolves the schema, which cost more than decoding an event and was done per event
   * (docs/performance.md §4). Thread-safe: an Avro reader initialises itself on first use without
   * publishing safely, so a decode holds the reader's lock (uncontended but for two topics of one
   * schema).
   */
  public static final class Reader {
    private final Schema schema;
    private final GenericDatumReader<GenericRecord> reader;
    private BinaryDecoder decoder;

    public Reader(Schema schema) {
      this.schema = schema;
      this.reader = new GenericDatumReader<>(schema);
    }

    /** The writer schema. */
    public Schema schema() {
      return schema;
    }

    /**
     * Decodes {@code payload}.
     *
     * @throws IOException when it does not decode with the schema (truncated, garbled, trailing
     *     bytes) or the result is not a record
     */
    public synchronized Map<String, Object> decode(byte[] payload) throws IOException {
      decoder = DecoderFactory.get().binaryDecoder(payload, decoder);
      Object datum;
      try {
        datum = reader.read(null, decoder);
      } catch (RuntimeException e) { // Avro reports some garbage as runtime exceptions
        throw new IOException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
      }
      if (!decoder.isEnd()) {
        throw new IOException("trailing bytes after the record");
      }
      if (!(datum instanceof GenericRecord record)) {
        throw new IOException("payload is not a record");
      }
      return toMap(record);
    }
  }

  private static Map<String, Object> toMap(GenericRecord record) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Schema.Field f : record.getSchema().getFields()) {
      out.put(f.name(), plain(record.get(f.pos())));
    }
    return out;
  }

  private static Object plain(Object v) {
    if (v == null || v instanceof Number || v instanceof Boolean) {
      return v;
    }
    if (v instanceof GenericRecord r) {
      return toMap(r);
    }
    if (v instanceof GenericData.EnumSymbol || v instanceof CharSequence) {
      return v.toString();
    }
    if (v instanceof ByteBuffer b) {
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      return Base64.getEncoder().encodeToString(bytes);
    }
    if (v instanceof GenericData.Fixed f) {
      return Base64.getEncoder().encodeToString(f.bytes());
    }
    if (v instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(e -> out.add(plain(e)));
      return out;
    }
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, e) -> out.put(k.toString(), plain(e)));
      return out;
    }
    return v.toString();
  }
}
