package io.sf2loki.source.eventlogobjects;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Defaults for well-known objects and the named presets of {@code
 * sources.eventlog_objects.presets}.
 *
 * <ul>
 *   <li>{@code login_history}: {@code LoginHistory} by {@code LoginTime};
 *   <li>{@code setup_audit_trail}: {@code SetupAuditTrail} by {@code CreatedDate};
 *   <li>{@code rtem_stored_events}: the Real-Time Event Monitoring storage big objects ({@code
 *       LoginEvent}, {@code ApiEvent}, ...), by {@code EventDate}, newest-first;
 *   <li>{@code threat_detection}: the {@code *EventStore} objects of the seven threat detection
 *       anomaly families (UniversalAnomalyEventStore tells its kind by {@code AnomalySubType}), by
 *       {@code EventDate}.
 * </ul>
 */
final class ObjectPresets {

  /** RTEM storage objects; Salesforce stores them as big objects. */
  static final List<String> RTEM_BIG_OBJECTS =
      List.of(
          "LoginEvent",
          "LogoutEvent",
          "LoginAsEvent",
          "ApiEvent",
          "ReportEvent",
          "ListViewEvent",
          "UriEvent",
          "LightningUriEvent",
          "IdentityVerificationEvent");

  static final List<String> THREAT_DETECTION_STORES =
      List.of(
          "ApiAnomalyEventStore",
          "CredentialStuffingEventStore",
          "GuestUserAnomalyEventStore",
          "LoginAnomalyEventStore",
          "ReportAnomalyEventStore",
          "SessionHijackingEventStore",
          "UniversalAnomalyEventStore");

  static final Map<String, List<String>> PRESETS =
      Map.of(
          "login_history",
          List.of("LoginHistory"),
          "setup_audit_trail",
          List.of("SetupAuditTrail"),
          "rtem_stored_events",
          RTEM_BIG_OBJECTS,
          "threat_detection",
          THREAT_DETECTION_STORES);

  private static final Map<String, String> TIMESTAMP_FIELDS =
      Map.of("LoginHistory", "LoginTime", "SetupAuditTrail", "CreatedDate");

  private ObjectPresets() {}

  /** The objects of preset {@code name}, if it is one. */
  static Optional<List<String>> preset(String name) {
    return Optional.ofNullable(PRESETS.get(name));
  }

  static Set<String> presetNames() {
    return new java.util.TreeSet<>(PRESETS.keySet());
  }

  /**
   * The default timestamp field of {@code object}: LoginTime, CreatedDate, Timestamp (Event Log
   * Objects) or EventDate.
   */
  static String timestampField(String object) {
    if (EloPoll.isEventLogObject(object)) {
      return "Timestamp";
    }
    return TIMESTAMP_FIELDS.getOrDefault(object, "EventDate");
  }

  /** True for the RTEM storage objects, which are big objects. */
  static boolean isBigObject(String object) {
    return RTEM_BIG_OBJECTS.contains(object);
  }
}
