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

  private Categories() {}

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
