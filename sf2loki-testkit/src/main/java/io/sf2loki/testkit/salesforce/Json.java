package io.sf2loki.testkit.salesforce;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** JSON and Salesforce date helpers of the fake. */
final class Json {

  static final ObjectMapper MAPPER = new ObjectMapper();

  /** Salesforce's REST datetime form: {@code 2026-06-30T01:00:00.000+0000}. */
  static final DateTimeFormatter SF_DATETIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx").withZone(ZoneOffset.UTC);

  private Json() {}

  static String quote(String s) {
    try {
      return MAPPER.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static JsonNode read(String text) throws JsonProcessingException {
    return MAPPER.readTree(text);
  }

  static String sfDate(Instant t) {
    return SF_DATETIME.format(t);
  }
}
