package io.sf2loki.cli.doctor;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.salesforce.rest.ApiErrorException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import java.io.IOException;
import java.util.List;

/**
 * {@code permissions:<Object>}: {@code SELECT Id FROM <Object> LIMIT 1} for one configured event
 * object of {@code sources.eventlog_objects}; a user who may not read it gets {@code INVALID_TYPE}.
 * An Event Log Object ({@code *EventLog}) has no {@code Id}: it is probed with {@code SELECT
 * Timestamp FROM <Object> LIMIT 1} (the server's implicit last 15 days), only once {@link
 * EventLogObjectsCheck} found Event Log Objects readable at all, and its remedy names View Event
 * Log Object Data.
 */
final class ObjectAccessCheck implements Check {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String object;

  ObjectAccessCheck(String object) {
    this.object = object;
  }

  @Override
  public String name() {
    return "permissions:" + object;
  }

  @Override
  public List<String> requires() {
    return eventLogObject()
        ? List.of(AuthCheck.NAME, EventLogObjectsCheck.NAME)
        : List.of(AuthCheck.NAME);
  }

  @Override
  public CheckResult run(DoctorContext context) throws Exception {
    try {
      int rows =
          context
              .salesforce()
              .rest()
              .query("SELECT " + probeField() + " FROM " + object + " LIMIT 1")
              .records()
              .size();
      return new CheckResult.Pass(
          object + " is queryable (" + rows + " row(s) in a LIMIT 1 probe)");
    } catch (ApiErrorException e) {
      if (e.status() == 400 || e.status() == 403 || e.status() == 404) {
        return new CheckResult.Fail(
            object + " is not queryable: " + e.status() + " " + errorCode(e.body()), remedy());
      }
      return new CheckResult.Fail(e.getMessage(), "retry later; check Salesforce's status");
    } catch (SalesforceApiException e) {
      return new CheckResult.Fail(e.getMessage(), "retry later; check Salesforce's status");
    }
  }

  private boolean eventLogObject() {
    return object.endsWith("EventLog");
  }

  private String probeField() {
    return eventLogObject() ? "Timestamp" : "Id";
  }

  private String remedy() {
    String grant =
        eventLogObject()
            ? "grant the user View Event Log Object Data (or the Event Monitoring User permission"
                + " set; the org needs Event Log Objects: Hyperforce with Shield or the Event"
                + " Monitoring add-on)"
            : "grant the user View Real-Time Event Monitoring Data (and, for a storage object,"
                + " enable its storage in Event Manager)";
    return grant + ", or remove " + object + " from sources.eventlog_objects.objects";
  }

  private static String errorCode(String body) {
    try {
      return JSON.readTree(body).path(0).path("errorCode").asText("");
    } catch (IOException e) {
      return "";
    }
  }
}
