package io.sf2loki.salesforce.limits;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One entry of {@code /services/data/vXX.X/limits}: {@code "DailyApiRequests":{"Max":15000,
 * "Remaining":14312}}.
 */
public record OrgLimit(String name, long max, long remaining) {

  /** The org's daily API allocation. */
  public static final String DAILY_API_REQUESTS = "DailyApiRequests";

  /** The entries of a {@code /limits} body; those without integer Max and Remaining are skipped. */
  public static List<OrgLimit> parse(JsonNode body) {
    List<OrgLimit> out = new ArrayList<>();
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      JsonNode max = body.path(name).path("Max");
      JsonNode remaining = body.path(name).path("Remaining");
      if (max.isIntegralNumber() && remaining.isIntegralNumber()) {
        out.add(new OrgLimit(name, max.asLong(), remaining.asLong()));
      }
    }
    return out;
  }
}
