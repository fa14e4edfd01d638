package io.sf2loki.daemon.ops;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The Salesforce records the pack's LogQL reads, by the {@code event_type} label sf2loki gives
 * them, with the fields Salesforce fills in them (from Salesforce's object reference and Platform
 * Events Developer Guide). sf2loki's line is the record's canonical JSON, so these are the keys a
 * {@code | json} stage can find; a query that reads another key reads nothing (the Python sf2loki's
 * dashboards grouped EventLogFile ReportExport rows by a USER_NAME that type does not have).
 */
final class SalesforceFields {

  /**
   * A record type as sf2loki ships it.
   *
   * @param source the {@code source} label
   * @param eventType the {@code event_type} label: the EventLogFile type, the object's API name or
   *     the topic's last segment
   * @param fields the top-level fields Salesforce fills
   */
  record Type(String source, String eventType, Set<String> fields) {

    /**
     * How far behind its event time an entry of this source normally reaches Loki: what an
     * event-time rule must look back at least.
     */
    Duration arrival() {
      return switch (source) {
        case "eventlogfile" -> Duration.ofHours(6); // Sf2lokiEventLogFileLagHigh's threshold
        case "eventlog_objects", "apexlog" -> Duration.ofMinutes(10); // poll + settle window
        default -> Duration.ZERO; // pubsub: seconds
      };
    }
  }

  private static final Set<String> ELF_LOGIN =
      Set.of(
          "API_TYPE",
          "API_VERSION",
          "AUTHENTICATION_METHOD_REFERENCE",
          "BROWSER_TYPE",
          "CIPHER_SUITE",
          "CLIENT_IP",
          "CPU_TIME",
          "DB_TOTAL_TIME",
          "EVENT_TYPE",
          "LOGIN_KEY",
          "LOGIN_STATUS",
          "ORGANIZATION_ID",
          "REQUEST_ID",
          "REQUEST_STATUS",
          "RUN_TIME",
          "SESSION_KEY",
          "SOURCE_IP",
          "TIMESTAMP",
          "TIMESTAMP_DERIVED",
          "TLS_PROTOCOL",
          "URI",
          "URI_ID_DERIVED",
          "USER_ID",
          "USER_ID_DERIVED",
          "USER_NAME",
          "USER_TYPE");

  // no USER_NAME: ReportExport rows name the user by USER_ID only
  private static final Set<String> ELF_REPORT_EXPORT =
      Set.of(
          "CLIENT_INFO",
          "CLIENT_IP",
          "EVENT_TYPE",
          "LOGIN_KEY",
          "ORGANIZATION_ID",
          "REQUEST_ID",
          "SESSION_KEY",
          "TIMESTAMP",
          "TIMESTAMP_DERIVED",
          "URI",
          "URI_ID_DERIVED",
          "USER_ID",
          "USER_ID_DERIVED");

  private static final Set<String> LOGIN_EVENT =
      Set.of(
          "AdditionalInfo",
          "ApiType",
          "ApiVersion",
          "Application",
          "AuthMethodReference",
          "AuthServiceId",
          "Browser",
          "CipherSuite",
          "City",
          "ClientVersion",
          "Country",
          "CountryIso",
          "CreatedDate",
          "EvaluationTime",
          "EventDate",
          "EventIdentifier",
          "ForwardedForIp",
          "HttpMethod",
          "Id",
          "LoginGeoId",
          "LoginHistoryId",
          "LoginKey",
          "LoginLatitude",
          "LoginLongitude",
          "LoginSubType",
          "LoginType",
          "LoginUrl",
          "Platform",
          "PolicyId",
          "PolicyOutcome",
          "PostalCode",
          "RelatedEventIdentifier",
          "SessionKey",
          "SessionLevel",
          "SourceIp",
          "Status",
          "Subdivision",
          "TlsProtocol",
          "UserId",
          "UserType",
          "Username");

  private static final Set<String> REPORT_EVENT =
      Set.of(
          "ColumnHeaders",
          "DashboardId",
          "DashboardName",
          "Description",
          "EventDate",
          "EventIdentifier",
          "EventSource",
          "ExecutionIdentifier",
          "LoginKey",
          "Name",
          "Operation",
          "QueriedEntities",
          "ReportId",
          "RowsProcessed",
          "SessionKey",
          "SourceIp",
          "UserId",
          "Username");

  private static final Set<String> API_ANOMALY =
      Set.of(
          "EventDate",
          "EventIdentifier",
          "LoginKey",
          "Operation",
          "PolicyId",
          "PolicyOutcome",
          "QueriedEntities",
          "RequestIdentifier",
          "RowsProcessed",
          "Score",
          "SecurityEventData",
          "SessionKey",
          "SourceIp",
          "Summary",
          "Uri",
          "UserAgent",
          "UserId",
          "Username");

  // what every threat-detection event (credential stuffing, session hijacking, report anomaly)
  // has in common with the API anomaly
  private static final Set<String> THREAT =
      Set.of(
          "EventDate",
          "EventIdentifier",
          "LoginKey",
          "PolicyId",
          "PolicyOutcome",
          "Score",
          "SecurityEventData",
          "SessionKey",
          "SourceIp",
          "Summary",
          "UserId",
          "Username");

  static final Map<String, Type> BY_EVENT_TYPE =
      List.of(
              new Type("eventlogfile", "Login", ELF_LOGIN),
              new Type("eventlogfile", "ReportExport", ELF_REPORT_EXPORT),
              new Type("eventlog_objects", "LoginEvent", LOGIN_EVENT),
              new Type("pubsub", "LoginEventStream", LOGIN_EVENT),
              new Type("eventlog_objects", "ReportEvent", REPORT_EVENT),
              new Type("pubsub", "ReportEventStream", REPORT_EVENT),
              new Type("eventlog_objects", "ApiAnomalyEventStore", API_ANOMALY),
              new Type("pubsub", "ApiAnomalyEvent", API_ANOMALY),
              new Type("eventlog_objects", "CredentialStuffingEventStore", THREAT),
              new Type("pubsub", "CredentialStuffingEvent", THREAT),
              new Type("eventlog_objects", "SessionHijackingEventStore", THREAT),
              new Type("pubsub", "SessionHijackingEvent", THREAT),
              new Type("eventlog_objects", "ReportAnomalyEventStore", THREAT),
              new Type("pubsub", "ReportAnomalyEvent", THREAT))
          .stream()
          .collect(Collectors.toMap(Type::eventType, Function.identity()));

  private SalesforceFields() {}

  /** The type sf2loki labels {@code event_type}, if the pack knows it. */
  static Optional<Type> of(String eventType) {
    return Optional.ofNullable(BY_EVENT_TYPE.get(eventType));
  }
}
