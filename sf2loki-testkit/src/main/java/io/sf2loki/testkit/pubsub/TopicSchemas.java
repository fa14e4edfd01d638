package io.sf2loki.testkit.pubsub;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Salesforce-shaped Avro schemas for the fake's topics (namespace {@code com.sforce.eventbus},
 * nullable unions, {@code long} epoch-millisecond datetimes, a nested {@code ChangeEventHeader} for
 * change events), their fingerprints and a raw Avro binary encoder.
 */
public final class TopicSchemas {

  private TopicSchemas() {}

  private static final String NULLABLE_STRING = "[\"null\",\"string\"]";
  private static final String NULLABLE_LONG = "[\"null\",\"long\"]";

  /** A Real-Time Event Monitoring stream: {@code /event/LoginEventStream}. */
  public static Schema loginEventStream() {
    return record(
        "LoginEventStream",
        field("EventDate", NULLABLE_LONG, "Data:DateTime"),
        field("EventIdentifier", NULLABLE_STRING, null),
        field("EventUuid", NULLABLE_STRING, null),
        field("UserId", NULLABLE_STRING, null),
        field("Username", NULLABLE_STRING, null),
        field("SourceIp", NULLABLE_STRING, null),
        field("LoginUrl", NULLABLE_STRING, null),
        field("Status", NULLABLE_STRING, null),
        field("Application", NULLABLE_STRING, null),
        field("Browser", NULLABLE_STRING, null),
        field("EvaluationTime", "[\"null\",\"double\"]", null));
  }

  /** The newer-generation RTEM shape, e.g. {@code /event/ReportEvent}. */
  public static Schema reportEvent() {
    return record(
        "ReportEvent",
        field("EventDate", NULLABLE_LONG, "Data:DateTime"),
        field("EventIdentifier", NULLABLE_STRING, null),
        field("UserId", NULLABLE_STRING, null),
        field("Username", NULLABLE_STRING, null),
        field("ReportId", NULLABLE_STRING, null),
        field("Operation", NULLABLE_STRING, null));
  }

  /**
   * A Threat Detection event, e.g. {@code /event/ApiAnomalyEvent}: the fields detections use,
   * {@code Score} as a double, {@code SecurityEventData} as a JSON string, {@code
   * RequestIdentifier}; {@code UniversalAnomalyEvent} adds {@code AnomalySubType}.
   */
  public static Schema anomalyEvent(String name) {
    List<String> fields =
        new java.util.ArrayList<>(
            List.of(
                field("EventDate", NULLABLE_LONG, "Data:DateTime"),
                field("EventIdentifier", NULLABLE_STRING, null),
                field("RequestIdentifier", NULLABLE_STRING, null),
                field("UserId", NULLABLE_STRING, null),
                field("Username", NULLABLE_STRING, null),
                field("SourceIp", NULLABLE_STRING, null),
                field("Score", "[\"null\",\"double\"]", null),
                field("Summary", NULLABLE_STRING, null),
                field("SecurityEventData", NULLABLE_STRING, null)));
    if (name.equals("UniversalAnomalyEvent")) {
      fields.add(field("AnomalySubType", NULLABLE_STRING, null));
    }
    return record(name, fields.toArray(String[]::new));
  }

  /** A custom platform event, {@code /event/Order_Shipped__e}. */
  public static Schema platformEvent(String apiName) {
    return record(
        apiName,
        field("CreatedDate", "\"long\"", "CreatedDate:DateTime"),
        field("CreatedById", "\"string\"", null),
        field("Order_Number__c", NULLABLE_STRING, null),
        field("Amount__c", "[\"null\",\"double\"]", null));
  }

  /**
   * A change event, {@code /data/AccountChangeEvent}: field 0 is the {@code ChangeEventHeader}; a
   * compound {@code BillingAddress} sits at position 4 (so {@code "4-0x10"} names {@code
   * BillingAddress.Country}, nested field 4).
   */
  public static Schema accountChangeEvent() {
    String header =
        "{\"type\":\"record\",\"name\":\"ChangeEventHeader\",\"fields\":["
            + "{\"name\":\"entityName\",\"type\":\"string\"},"
            + "{\"name\":\"recordIds\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
            + "{\"name\":\"changeType\",\"type\":{\"type\":\"enum\",\"name\":\"ChangeType\","
            + "\"symbols\":[\"CREATE\",\"UPDATE\",\"DELETE\",\"UNDELETE\",\"GAP_CREATE\","
            + "\"GAP_UPDATE\",\"GAP_DELETE\",\"GAP_UNDELETE\",\"GAP_OVERFLOW\"]}},"
            + "{\"name\":\"changeOrigin\",\"type\":\"string\"},"
            + "{\"name\":\"transactionKey\",\"type\":\"string\"},"
            + "{\"name\":\"sequenceNumber\",\"type\":\"int\"},"
            + "{\"name\":\"commitTimestamp\",\"type\":\"long\"},"
            + "{\"name\":\"commitNumber\",\"type\":\"long\"},"
            + "{\"name\":\"commitUser\",\"type\":\"string\"},"
            + "{\"name\":\"nulledFields\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
            + "{\"name\":\"diffFields\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
            + "{\"name\":\"changedFields\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}";
    String address =
        "[\"null\",{\"type\":\"record\",\"name\":\"Address\",\"fields\":["
            + "{\"name\":\"Street\",\"type\":[\"null\",\"string\"],\"default\":null},"
            + "{\"name\":\"City\",\"type\":[\"null\",\"string\"],\"default\":null},"
            + "{\"name\":\"State\",\"type\":[\"null\",\"string\"],\"default\":null},"
            + "{\"name\":\"PostalCode\",\"type\":[\"null\",\"string\"],\"default\":null},"
            + "{\"name\":\"Country\",\"type\":[\"null\",\"string\"],\"default\":null}]}]";
    return record(
        "AccountChangeEvent",
        field("ChangeEventHeader", header, null),
        field("Name", NULLABLE_STRING, null),
        field("Type", NULLABLE_STRING, null),
        field("ParentId", NULLABLE_STRING, null),
        field("BillingAddress", address, null),
        field("Phone", NULLABLE_STRING, null),
        field("Industry", NULLABLE_STRING, null),
        field("LastModifiedDate", NULLABLE_LONG, "LastModifiedDate:DateTime"));
  }

  /** The schema's id: the hex of its Avro parsing fingerprint, as stable as Salesforce's. */
  public static String schemaId(Schema schema) {
    return Long.toHexString(SchemaNormalization.parsingFingerprint64(schema));
  }

  /**
   * Raw Avro binary of {@code fields} (no container header), nested maps for records and lists for
   * arrays; an absent nullable field is null.
   */
  public static byte[] encode(Schema schema, Map<String, ?> fields) {
    return encode(new GenericDatumWriter<>(schema), schema, fields);
  }

  /** {@link #encode(Schema, Map)} with a writer of {@code schema} built once (it is stateless). */
  static byte[] encode(
      GenericDatumWriter<GenericRecord> writer, Schema schema, Map<String, ?> fields) {
    GenericRecord record = toRecord(schema, fields);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    try {
      writer.write(record, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "fields do not fit schema " + schema.getName() + ": " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  private static GenericRecord toRecord(Schema schema, Map<String, ?> fields) {
    GenericRecord record = new GenericData.Record(schema);
    for (Schema.Field f : schema.getFields()) {
      record.put(f.name(), value(f.schema(), fields.get(f.name())));
    }
    return record;
  }

  private static Object value(Schema schema, Object v) {
    if (v == null) {
      return null;
    }
    return switch (schema.getType()) {
      case UNION ->
          value(
              schema.getTypes().stream()
                  .filter(t -> t.getType() != Schema.Type.NULL)
                  .findFirst()
                  .orElseThrow(),
              v);
      case RECORD -> {
        @SuppressWarnings("unchecked")
        Map<String, ?> nested = (Map<String, ?>) v;
        yield toRecord(schema, nested);
      }
      case ENUM -> new GenericData.EnumSymbol(schema, v.toString());
      case ARRAY -> ((List<?>) v).stream().map(e -> value(schema.getElementType(), e)).toList();
      case LONG -> ((Number) v).longValue();
      case INT -> ((Number) v).intValue();
      case DOUBLE -> ((Number) v).doubleValue();
      default -> v;
    };
  }

  private static Schema record(String name, String... fields) {
    String json =
        "{\"type\":\"record\",\"name\":\""
            + name
            + "\",\"namespace\":\"com.sforce.eventbus\",\"fields\":["
            + String.join(",", fields)
            + "]}";
    return new Schema.Parser().parse(json);
  }

  private static String field(String name, String type, String doc) {
    StringBuilder b = new StringBuilder("{\"name\":\"").append(name).append("\",\"type\":");
    b.append(type);
    if (type.startsWith("[\"null\"")) {
      b.append(",\"default\":null");
    }
    if (doc != null) {
      b.append(",\"doc\":\"").append(doc).append('"');
    }
    return b.append('}').toString();
  }
}
