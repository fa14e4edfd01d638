package io.sf2loki.cli.doctor;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.salesforce.rest.ApiErrorException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import java.util.List;

/**
 * {@code permissions:EventLogFile}: describes EventLogFile, which answers only a user with View
 * Event Log Files (or View All Data); it must be queryable.
 */
final class EventLogFileAccessCheck implements Check {

  private static final String FIX =
      "grant the integration user the View Event Log Files permission (a permission set), and"
          + " check that the org has Event Monitoring or free EventLogFile access";

  @Override
  public String name() {
    return "permissions:EventLogFile";
  }

  @Override
  public List<String> requires() {
    return List.of(AuthCheck.NAME);
  }

  @Override
  public CheckResult run(DoctorContext context) throws Exception {
    SalesforceRestClient rest = context.salesforce().rest();
    JsonNode describe;
    try {
      describe = rest.getJson(rest.dataPath("sobjects/EventLogFile/describe"));
    } catch (ApiErrorException e) {
      if (e.status() == 403 || e.status() == 404) {
        return new CheckResult.Fail(
            "the user lacks View Event Log Files (describe EventLogFile answered "
                + e.status()
                + ")",
            FIX);
      }
      return new CheckResult.Fail(e.getMessage(), "retry later; check Salesforce's status");
    } catch (SalesforceApiException e) {
      return new CheckResult.Fail(e.getMessage(), "retry later; check Salesforce's status");
    }
    if (!describe.path("queryable").asBoolean(true)) {
      return new CheckResult.Fail("EventLogFile is not queryable for the user", FIX);
    }
    return new CheckResult.Pass("EventLogFile is queryable (View Event Log Files)");
  }
}
