package io.sf2loki.shape;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts Salesforce JSON records into the plain field maps the shaping rules work on.
 *
 * <p>The {@code attributes} object Salesforce adds to every record (and to nested relationship
 * records) is bookkeeping, not event data: it is dropped, so lines are smaller and do not change
 * when {@code api_version} changes. Integers stay {@code Long}/{@code BigInteger}, decimals become
 * {@code Double} (or {@code BigDecimal} when the parser kept one).
 */
public final class Payloads {

  /** The bookkeeping member of every REST record. */
  public static final String ATTRIBUTES = "attributes";

  private Payloads() {}

  /** The record's fields in server order, {@code attributes} removed; a mutable copy. */
  public static Map<String, Object> fromJson(JsonNode record) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> f : record.properties()) {
      if (!ATTRIBUTES.equals(f.getKey())) {
        out.put(f.getKey(), value(f.getValue()));
      }
    }
    return out;
  }

  private static Object value(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      return fromJson(node);
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      node.forEach(n -> list.add(value(n)));
      return list;
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
    }
    if (node.isBigDecimal()) {
      return node.decimalValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    return node.asText();
  }

  /** The text of a top-level scalar field, empty when absent or null. */
  public static String text(Map<String, Object> payload, String field) {
    Object v = payload.get(field);
    return v == null ? "" : CanonicalJson.stringForm(v);
  }
}
