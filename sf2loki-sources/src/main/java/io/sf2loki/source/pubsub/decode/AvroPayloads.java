package io.sf2loki.source.pubsub.decode;

import io.sf2loki.shape.CanonicalJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Schemaless Avro binary, decoded with the writer schema as both writer and reader schema, to the
 * maps the shaping rules take: unions unwrap to their value, records become nested maps, strings
 * are strings, enums their symbol, {@code bytes}/{@code fixed} standard base64, and datetimes stay
 * epoch-millisecond numbers. A record's map iterates its fields in canonical JSON order (by code
 * point), so the line is written without sorting them.
 */
public final class AvroPayloads {

  private AvroPayloads() {}

  /**
   * Decodes {@code payload}.
   *
   * @throws IOException when it does not decode with {@code schema} (truncated, garbled, trailing
   *     bytes) or the schema is not a record
   */
  public static Map<String, Object> decode(Schema schema, byte[] payload) throws IOException {
    return new Reader(schema).decode(payload);
  }

  /**
   * The decoder of one writer schema, kept with the schema ({@link SchemaCache}) and compiled once
   * into a tree of value readers that read the binary straight into the maps: Avro's generic reader
   * built a record of {@code Utf8}s first, which was then copied into the maps, and building it per
   * event cost more than decoding (docs/performance.md §4). Thread-safe: a decode holds the
   * reader's lock for the reused binary decoder (uncontended but for two topics of one schema).
   */
  public static final class Reader {
    private final Schema schema;
    private final Value root;
    private BinaryDecoder decoder;

    public Reader(Schema schema) {
      this.schema = schema;
      this.root = compile(schema, new IdentityHashMap<>());
    }

    /** The writer schema. */
    public Schema schema() {
      return schema;
    }

    /**
     * Decodes {@code payload}.
     *
     * @throws IOException when it does not decode with the schema (truncated, garbled, trailing
     *     bytes) or the schema is not a record
     */
    @SuppressWarnings("unchecked")
    public synchronized Map<String, Object> decode(byte[] payload) throws IOException {
      if (!(root instanceof RecordValue)) {
        throw new IOException("payload is not a record");
      }
      decoder = DecoderFactory.get().binaryDecoder(payload, decoder);
      Object datum;
      try {
        datum = root.read(decoder);
      } catch (RuntimeException e) { // Avro reports some garbage as runtime exceptions
        throw new IOException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
      }
      if (!decoder.isEnd()) {
        throw new IOException("trailing bytes after the record");
      }
      return (Map<String, Object>) datum;
    }
  }

  /** Reads one value of a schema from the binary. */
  private interface Value {
    Object read(BinaryDecoder in) throws IOException;
  }

  private static Value compile(Schema s, Map<Schema, RecordValue> records) {
    return switch (s.getType()) {
      case RECORD -> {
        RecordValue r = records.get(s);
        if (r == null) { // registered before its fields, so a recursive schema ends here
          r = new RecordValue(s.getFields().size());
          records.put(s, r);
          r.init(s, records);
        }
        yield r;
      }
      case UNION -> {
        Value[] branches =
            s.getTypes().stream().map(t -> compile(t, records)).toArray(Value[]::new);
        yield in -> branches[index(in.readIndex(), branches.length, "union branch")].read(in);
      }
      case NULL ->
          in -> {
            in.readNull();
            return null;
          };
      case BOOLEAN -> BinaryDecoder::readBoolean;
      case INT -> BinaryDecoder::readInt;
      case LONG -> BinaryDecoder::readLong;
      case FLOAT -> BinaryDecoder::readFloat;
      case DOUBLE -> BinaryDecoder::readDouble;
      case STRING -> BinaryDecoder::readString;
      case BYTES -> in -> base64(in.readBytes(null));
      case FIXED -> fixed(s.getFixedSize());
      case ENUM -> {
        List<String> symbols = List.copyOf(s.getEnumSymbols());
        yield in -> symbols.get(index(in.readEnum(), symbols.size(), "enum symbol"));
      }
      case ARRAY -> array(compile(s.getElementType(), records));
      case MAP -> map(compile(s.getValueType(), records));
    };
  }

  private static int index(int i, int size, String what) throws IOException {
    if (i < 0 || i >= size) {
      throw new IOException(what + " " + i + " out of range (" + size + ")");
    }
    return i;
  }

  private static Value fixed(int size) {
    return in -> {
      byte[] bytes = new byte[size];
      in.readFixed(bytes);
      return Base64.getEncoder().encodeToString(bytes);
    };
  }

  private static Value array(Value item) {
    return in -> {
      List<Object> out = new ArrayList<>();
      for (long n = in.readArrayStart(); n != 0; n = in.arrayNext()) {
        for (long k = 0; k < n; k++) {
          out.add(item.read(in));
        }
      }
      return out;
    };
  }

  private static Value map(Value value) {
    return in -> {
      Map<String, Object> out = new LinkedHashMap<>();
      for (long n = in.readMapStart(); n != 0; n = in.mapNext()) {
        for (long k = 0; k < n; k++) {
          String key = in.readString();
          out.put(key, value.read(in));
        }
      }
      return out;
    };
  }

  private static String base64(ByteBuffer b) {
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** A record: its fields read in writer order, put into the map in canonical order. */
  private static final class RecordValue implements Value {
    private final Value[] fields;
    private final String[] names; // in canonical order
    private final int[] order; // writer position of the i-th field in canonical order
    private final int capacity;

    RecordValue(int size) {
      this.fields = new Value[size];
      this.names = new String[size];
      this.order = new int[size];
      this.capacity = (int) (size / 0.75f) + 1; // never resized
    }

    void init(Schema s, Map<Schema, RecordValue> records) {
      List<Schema.Field> byName = new ArrayList<>(s.getFields());
      byName.sort((a, b) -> CanonicalJson.compareCodePoints(a.name(), b.name()));
      for (int i = 0; i < byName.size(); i++) {
        names[i] = byName.get(i).name();
        order[i] = byName.get(i).pos();
      }
      for (Schema.Field f : s.getFields()) {
        fields[f.pos()] = AvroPayloads.compile(f.schema(), records);
      }
    }

    @Override
    public Object read(BinaryDecoder in) throws IOException {
      Object[] values = new Object[fields.length];
      for (int i = 0; i < fields.length; i++) {
        values[i] = fields[i].read(in);
      }
      Map<String, Object> out = new LinkedHashMap<>(capacity);
      for (int i = 0; i < names.length; i++) {
        out.put(names[i], values[order[i]]);
      }
      return out;
    }
  }
}
