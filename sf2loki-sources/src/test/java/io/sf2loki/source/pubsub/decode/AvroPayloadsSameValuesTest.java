package io.sf2loki.source.pubsub.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.source.pubsub.ChangeEvents;
import io.sf2loki.testkit.pubsub.TopicSchemas;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The decoder reading the binary straight into maps gives the values Avro's generic reader and the
 * conversion after it gave ({@link #generic}), with each record's fields in canonical order, and so
 * the same line.
 */
class AvroPayloadsSameValuesTest {

  private static final Schema EVERY_KIND =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "Every", "fields": [
                {"name": "Zeta", "type": "string"},
                {"name": "id", "type": ["null", "string"]},
                {"name": "Count", "type": "int"},
                {"name": "EventDate", "type": {"type": "long", "logicalType": "timestamp-millis"}},
                {"name": "Score", "type": ["null", "double"]},
                {"name": "ratio", "type": "float"},
                {"name": "ok", "type": "boolean"},
                {"name": "raw", "type": "bytes"},
                {"name": "digest", "type": {"type": "fixed", "name": "Digest", "size": 4}},
                {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B"]}},
                {"name": "tags", "type": {"type": "array", "items": ["null", "string"]}},
                {"name": "attrs", "type": {"type": "map", "values": ["null", "long"]}},
                {"name": "Header", "type": ["null", {"type": "record", "name": "Header",
                  "fields": [
                    {"name": "seq", "type": "long"},
                    {"name": "Actor", "type": ["null", "string"]},
                    {"name": "inner", "type": {"type": "array", "items": {"type": "record",
                      "name": "Inner", "fields": [{"name": "v", "type": "double"},
                        {"name": "U", "type": "string"}]}}}]}]},
                {"name": "_private", "type": ["null", "int", "string"]}
              ]}
              """);
  private static final String[] TEXT = {"", "x", "ünïcødé €", "😀 \uD83D\uDE00", "q\"\\\n", "a b"};

  @Test
  void randomRecordsDecodeToTheValuesOfTheGenericReaderWithFieldsInCanonicalOrder()
      throws Exception {
    Random random = new Random(34);
    AvroPayloads.Reader reader = new AvroPayloads.Reader(EVERY_KIND);
    for (int i = 0; i < 3_000; i++) {
      byte[] payload = encode(EVERY_KIND, record(random));

      Map<String, Object> decoded = reader.decode(payload);
      Map<String, Object> expected = generic(EVERY_KIND, payload);

      assertThat(decoded).isEqualTo(expected);
      assertInCanonicalOrder(decoded);
      assertThat(CanonicalJson.write(decoded)).isEqualTo(CanonicalJson.write(expected));
    }
  }

  @Test
  void theSalesforceChangeEventSchemaDecodesAsBefore() throws Exception {
    Schema account = TopicSchemas.accountChangeEvent();
    Map<String, Object> fields = new LinkedHashMap<>(ChangeEvents.update(List.of("0x2"), "Acme"));
    fields.put("BillingAddress", Map.of("City", "Lyon"));
    byte[] payload = TopicSchemas.encode(account, fields);

    assertThat(AvroPayloads.decode(account, payload)).isEqualTo(generic(account, payload));
  }

  @Test
  void anOutOfRangeUnionBranchIsADecodeError() {
    Schema s =
        new Schema.Parser()
            .parse(
                "{\"type\": \"record\", \"name\": \"U\", \"fields\":"
                    + " [{\"name\": \"u\", \"type\": [\"null\", \"long\"]}]}");
    assertThatThrownBy(() -> AvroPayloads.decode(s, new byte[] {8, 2}))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("union branch");
  }

  private static void assertInCanonicalOrder(Object value) {
    if (value instanceof Map<?, ?> map) {
      if (isRecordMap(map)) {
        List<String> keys = new ArrayList<>();
        map.keySet().forEach(k -> keys.add((String) k));
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort(CanonicalJson::compareCodePoints);
        assertThat(keys).isEqualTo(sorted);
      }
      map.values().forEach(AvroPayloadsSameValuesTest::assertInCanonicalOrder);
    } else if (value instanceof List<?> list) {
      list.forEach(AvroPayloadsSameValuesTest::assertInCanonicalOrder);
    }
  }

  // A record's map, not an Avro map's (whose keys keep the wire order): records here have a
  // capitalised or underscore field.
  private static boolean isRecordMap(Map<?, ?> map) {
    return map.containsKey("Zeta") || map.containsKey("seq") || map.containsKey("U");
  }

  private static GenericRecord record(Random random) {
    GenericRecord r = new GenericData.Record(EVERY_KIND);
    r.put("Zeta", text(random));
    r.put("id", random.nextBoolean() ? null : text(random));
    r.put("Count", random.nextInt());
    r.put("EventDate", random.nextLong());
    r.put("Score", random.nextBoolean() ? null : Double.longBitsToDouble(random.nextLong()));
    r.put("ratio", (float) random.nextGaussian());
    r.put("ok", random.nextBoolean());
    byte[] raw = new byte[random.nextInt(6)];
    random.nextBytes(raw);
    r.put("raw", ByteBuffer.wrap(raw));
    byte[] digest = new byte[4];
    random.nextBytes(digest);
    r.put("digest", new GenericData.Fixed(EVERY_KIND.getField("digest").schema(), digest));
    r.put(
        "kind",
        new GenericData.EnumSymbol(
            EVERY_KIND.getField("kind").schema(), random.nextBoolean() ? "A" : "B"));
    List<String> tags = new ArrayList<>();
    for (int n = random.nextInt(4); n > 0; n--) {
      tags.add(random.nextInt(4) == 0 ? null : text(random));
    }
    r.put("tags", tags);
    Map<String, Long> attrs = new HashMap<>();
    for (int n = random.nextInt(4); n > 0; n--) {
      attrs.put(text(random) + n, random.nextBoolean() ? null : random.nextLong());
    }
    r.put("attrs", attrs);
    if (random.nextBoolean()) {
      Schema headerSchema = EVERY_KIND.getField("Header").schema().getTypes().get(1);
      GenericRecord header = new GenericData.Record(headerSchema);
      header.put("seq", random.nextLong());
      header.put("Actor", random.nextBoolean() ? null : text(random));
      Schema innerSchema = headerSchema.getField("inner").schema().getElementType();
      List<GenericRecord> inner = new ArrayList<>();
      for (int n = random.nextInt(3); n > 0; n--) {
        GenericRecord in = new GenericData.Record(innerSchema);
        in.put("v", random.nextDouble() * 1e20);
        in.put("U", text(random));
        inner.add(in);
      }
      header.put("inner", inner);
      r.put("Header", header);
    }
    int p = random.nextInt(3);
    r.put("_private", p == 0 ? null : p == 1 ? (Object) random.nextInt() : text(random));
    return r;
  }

  private static String text(Random random) {
    return TEXT[random.nextInt(TEXT.length)];
  }

  private static byte[] encode(Schema schema, GenericRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  /** The decoding before: Avro's generic reader, then each value converted. */
  static Map<String, Object> generic(Schema schema, byte[] payload) throws IOException {
    GenericRecord record =
        new GenericDatumReader<GenericRecord>(schema)
            .read(null, DecoderFactory.get().binaryDecoder(payload, null));
    return toMap(record);
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
