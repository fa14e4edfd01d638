package io.sf2loki.shape;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Event categories, the unit of the one-category-one-source rule: {@code LoginEvent}, {@code
 * /event/LoginEventStream}, {@code LoginEventStore}, {@code LoginHistory}, the Event Log Object
 * {@code LoginEventLog} and the EventLogFile type {@code Login} are all category {@code login}.
 */
public final class Categories {

  private static final List<String> SUFFIXES =
      List.of("EventStream", "EventStore", "EventLog", "Event");

  /**
   * Event Log Objects whose name, less {@code EventLog}, differs from their EventLogFile type:
   * {@code MetadataApiOpEventLog} is {@code MetadataApiOperation}, {@code SoapApiEventLog} is
   * {@code API} (the SOAP API calls).
   */
  private static final Map<String, String> ALIASES =
      Map.of("loginhistory", "login", "metadataapiop", "metadataapioperation", "soapapi", "api");

  /**
   * Event Log Objects whose EventLogFile type is not their name less {@code EventLog}, as the
   * EventLogFile type is spelled.
   */
  private static final Map<String, String> ELF_TYPES =
      Map.of("MetadataApiOp", "MetadataApiOperation", "SoapApi", "API", "Uri", "URI");

  private Categories() {}

  /**
   * The EventLogFile type carrying the events of Event Log Object {@code eventLogObject}: its name
   * less {@code EventLog} ({@code LoginEventLog} is {@code Login}), except {@code
   * MetadataApiOpEventLog} ({@code MetadataApiOperation}), {@code SoapApiEventLog} ({@code API})
   * and {@code UriEventLog} ({@code URI}); empty for a name that does not end in {@code EventLog}.
   * Both are one category.
   */
  public static java.util.Optional<String> eventLogFileType(String eventLogObject) {
    if (!eventLogObject.endsWith("EventLog") || eventLogObject.equals("EventLog")) {
      return java.util.Optional.empty();
    }
    String base = eventLogObject.substring(0, eventLogObject.length() - "EventLog".length());
    return java.util.Optional.of(ELF_TYPES.getOrDefault(base, base));
  }

  /**
   * The category of a Pub/Sub topic or an sObject name: its basename without a trailing {@code
   * EventStream}, {@code EventStore}, {@code EventLog} or {@code Event} (longest first, only if
   * something remains), lowercased; {@code loginhistory} is {@code login}, {@code metadataapiop}
   * {@code metadataapioperation} and {@code soapapi} {@code api}.
   */
  public static String ofIdentifier(String identifier) {
    String base = identifier.substring(identifier.lastIndexOf('/') + 1);
    for (String suffix : SUFFIXES) {
      if (base.endsWith(suffix) && base.length() > suffix.length()) {
        base = base.substring(0, base.length() - suffix.length());
        break;
      }
    }
    return alias(base.toLowerCase(Locale.ROOT));
  }

  /** The category of an EventLogFile type: lowercased, spaces removed. */
  public static String ofElfType(String eventType) {
    return alias(eventType.replace(" ", "").toLowerCase(Locale.ROOT));
  }

  private static String alias(String category) {
    return ALIASES.getOrDefault(category, category);
  }
}
