package io.sf2loki.source.pubsub;

import java.util.List;
import java.util.Map;

/** Fields of {@code /data/AccountChangeEvent} events for the fake Pub/Sub to publish. */
public final class ChangeEvents {

  private ChangeEvents() {}

  /** An AccountChangeEvent UPDATE of {@code name} whose changedFields are {@code changed}. */
  public static Map<String, Object> update(List<String> changed, String name) {
    return Map.of(
        "ChangeEventHeader",
        Map.ofEntries(
            Map.entry("entityName", "Account"),
            Map.entry("recordIds", List.of("001000000000001AAA")),
            Map.entry("changeType", "UPDATE"),
            Map.entry("changeOrigin", "com/salesforce/api/soap/60.0"),
            Map.entry("transactionKey", "tx"),
            Map.entry("sequenceNumber", 1),
            Map.entry("commitTimestamp", 1_780_000_000_123L),
            Map.entry("commitNumber", 5L),
            Map.entry("commitUser", "005000000000001AAA"),
            Map.entry("nulledFields", List.of()),
            Map.entry("diffFields", List.of()),
            Map.entry("changedFields", changed)),
        "Name",
        name);
  }
}
