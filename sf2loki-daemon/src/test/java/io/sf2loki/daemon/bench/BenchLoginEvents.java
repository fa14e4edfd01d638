package io.sf2loki.daemon.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;

/**
 * The benchmark's numbered LoginEventStream events as raw Avro binary, written field by field into
 * a reused buffer. In a ceiling run the publisher shares two cores with the subscriber it feeds;
 * the fake's general encoder (a generic record per event, unions resolved by name) cost it more CPU
 * per event than the raw subscriber's whole path, so the ratio measured the harness. Salesforce
 * encodes elsewhere. Not thread-safe: one per publisher thread.
 */
final class BenchLoginEvents {

  /** The fields written, in the schema's order; each a {@code ["null", type]} union. */
  private static final List<String> FIELDS =
      List.of(
          "EventDate",
          "EventIdentifier",
          "EventUuid",
          "UserId",
          "Username",
          "SourceIp",
          "LoginUrl",
          "Status",
          "Application",
          "Browser",
          "EvaluationTime");

  private static final String UUID_PREFIX = "00000000-0000-4000-8000-";
  private static final String TWELVE_ZEROS = "000000000000";
  private static final Utf8 USER_ID = new Utf8("005D00000000001AAA");
  private static final Utf8 USERNAME = new Utf8("bench@acme.example");
  private static final Utf8 SOURCE_IP = new Utf8("203.0.113.7");
  private static final Utf8 LOGIN_URL = new Utf8("acme.my.salesforce.com");
  private static final Utf8 STATUS = new Utf8("Success");
  private static final Utf8 APPLICATION = new Utf8("Browser");
  private static final Utf8 BROWSER = new Utf8("Chrome 126");
  private static final double EVALUATION_TIME = 3.5;
  private static final int PRESENT = 1; // the non-null branch of every field's union

  private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
  private BinaryEncoder encoder;

  /** Refuses a schema whose fields are not the ones this writes, in this order. */
  BenchLoginEvents(Schema schema) {
    List<String> names = schema.getFields().stream().map(Schema.Field::name).toList();
    if (!names.equals(FIELDS)) {
      throw new IllegalArgumentException(
          "the benchmark writes LoginEventStream fields " + FIELDS + ", the topic has " + names);
    }
    for (Schema.Field f : schema.getFields()) {
      Schema s = f.schema();
      if (s.getType() != Schema.Type.UNION
          || s.getTypes().size() != 2
          || s.getTypes().get(0).getType() != Schema.Type.NULL) {
        throw new IllegalArgumentException(
            "the benchmark writes " + f.name() + " as [\"null\", …], the topic has " + s);
      }
    }
  }

  /** Event {@code seq}: the Avro binary of {@link #fields(long, long)}. */
  byte[] encode(long seq, long eventDateMillis) {
    out.reset();
    encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
    try {
      encoder.writeIndex(PRESENT);
      encoder.writeLong(eventDateMillis);
      string(identifier(seq));
      string(uuid(seq));
      string(USER_ID);
      string(USERNAME);
      string(SOURCE_IP);
      string(LOGIN_URL);
      string(STATUS);
      string(APPLICATION);
      string(BROWSER);
      encoder.writeIndex(PRESENT);
      encoder.writeDouble(EVALUATION_TIME);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
    }
    return out.toByteArray();
  }

  /** Event {@code seq} as the fields the fake's general encoder takes. */
  static Map<String, Object> fields(long seq, long eventDateMillis) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("EventDate", eventDateMillis);
    fields.put("EventIdentifier", identifier(seq));
    fields.put("EventUuid", uuid(seq));
    fields.put("UserId", USER_ID.toString());
    fields.put("Username", USERNAME.toString());
    fields.put("SourceIp", SOURCE_IP.toString());
    fields.put("LoginUrl", LOGIN_URL.toString());
    fields.put("Status", STATUS.toString());
    fields.put("Application", APPLICATION.toString());
    fields.put("Browser", BROWSER.toString());
    fields.put("EvaluationTime", EVALUATION_TIME);
    return fields;
  }

  private void string(CharSequence value) throws IOException {
    encoder.writeIndex(PRESENT);
    if (value instanceof Utf8 utf8) {
      encoder.writeString(utf8);
    } else {
      encoder.writeString(value.toString());
    }
  }

  /** The id {@link FreshnessRecorder} finds the event by in its line. */
  static String identifier(long seq) {
    return "bench-" + seq;
  }

  /** A version-4-shaped UUID whose last group is {@code seq}, zero-padded to twelve digits. */
  static String uuid(long seq) {
    String digits = Long.toString(seq);
    if (digits.length() > TWELVE_ZEROS.length()) {
      throw new IllegalArgumentException("seq over twelve digits: " + seq);
    }
    return UUID_PREFIX + TWELVE_ZEROS.substring(digits.length()) + digits;
  }
}
