package io.sf2loki.source.eventlogobjects;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * How long Salesforce keeps the rows of the objects it documents a retention for: about six months
 * (180 days) for the Real-Time Event Monitoring storage objects, the threat-detection {@code
 * *EventStore} objects, {@code LoginHistory} and {@code SetupAuditTrail}; 30 days for the Event Log
 * Objects ({@code *EventLog}). Custom objects keep whatever their org keeps: no retention is known
 * for them.
 */
public final class ObjectRetention {

  /** Six months, as Salesforce states it for its event storage. */
  public static final Duration SIX_MONTHS = Duration.ofDays(180);

  /** How long Salesforce keeps Event Log Object rows. */
  public static final Duration EVENT_LOG_OBJECTS = Duration.ofDays(30);

  private static final Set<String> SIX_MONTH_OBJECTS = Set.of("LoginHistory", "SetupAuditTrail");

  private ObjectRetention() {}

  /** The retention of {@code object}, when Salesforce documents one. */
  public static Optional<Duration> of(String object) {
    if (EloPoll.isEventLogObject(object)) {
      return Optional.of(EVENT_LOG_OBJECTS);
    }
    boolean known =
        SIX_MONTH_OBJECTS.contains(object)
            || ObjectPresets.RTEM_BIG_OBJECTS.contains(object)
            || ObjectPresets.THREAT_DETECTION_STORES.contains(object);
    return known ? Optional.of(SIX_MONTHS) : Optional.empty();
  }
}
