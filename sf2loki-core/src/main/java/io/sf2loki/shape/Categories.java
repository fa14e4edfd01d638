package io.sf2loki.shape;

import java.util.List;
import java.util.Locale;

/**
 * Event categories, the unit of the one-category-one-source rule: {@code LoginEvent}, {@code
 * /event/LoginEventStream}, {@code LoginEventStore}, {@code LoginHistory} and the EventLogFile type
 * {@code Login} are all category {@code login}.
 */
public final class Categories {

  private static final List<String> SUFFIXES = List.of("EventStream", "EventStore", "Event");

  private Categories() {}

  /**
   * The category of a Pub/Sub topic or an sObject name: its basename without a trailing {@code
   * EventStream}, {@code EventStore} or {@code Event} (longest first, only if something remains),
   * lowercased; {@code loginhistory} is {@code login}.
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
    return "loginhistory".equals(category) ? "login" : category;
  }
}
