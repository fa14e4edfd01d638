package io.sf2loki.cli.doctor;

import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.salesforce.limits.OrgLimit;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * {@code limits}: reads {@code /limits} once and sets the org's {@code DailyApiRequests} against
 * the allowance of {@code salesforce.api_share}. Fewer calls left than the allowance is a WARN (the
 * pollers would be slowed or paused: other integrations use most of the allocation); none left, or
 * 403 {@code REQUEST_LIMIT_EXCEEDED}, is a FAIL (the org is out of calls now). A {@code /limits}
 * that cannot be read is a WARN: the daemon never stops ingesting for it.
 */
final class LimitsCheck implements Check {

  private static final String OUT_OF_CALLS =
      "ingestion pauses until the rolling 24-hour window frees calls; find the integration that"
          + " spent them (Setup > Company Information > API Requests, Last 24 Hours) or ask"
          + " Salesforce for a larger allocation";

  private final ApiBudgetConfig budget;

  LimitsCheck(ApiBudgetConfig budget) {
    this.budget = budget;
  }

  @Override
  public String name() {
    return "limits";
  }

  @Override
  public List<String> requires() {
    return List.of(AuthCheck.NAME);
  }

  @Override
  public CheckResult run(DoctorContext context) throws Exception {
    if (!budget.limitsEnabled()) {
      return new CheckResult.Skip(
          "salesforce.limits.enabled = false: sf2loki does not read /limits");
    }
    SalesforceRestClient rest = context.salesforce().rest();
    Optional<OrgLimit> daily;
    try {
      daily =
          OrgLimit.parse(rest.getJson(rest.dataPath("limits"))).stream()
              .filter(l -> l.name().equals(OrgLimit.DAILY_API_REQUESTS))
              .findFirst();
    } catch (ThrottledException e) {
      return new CheckResult.Fail(
          "the org is out of API calls now (/limits answered 403 REQUEST_LIMIT_EXCEEDED)",
          OUT_OF_CALLS);
    } catch (SalesforceApiException e) {
      return new CheckResult.Warn(
          "cannot read /limits: " + e.getMessage(),
          "sf2loki paces itself by the Sforce-Limit-Info header meanwhile; check that the user"
              + " has API Enabled, or set salesforce.limits.enabled = false");
    }
    if (daily.isEmpty()) {
      return new CheckResult.Warn(
          "/limits lists no " + OrgLimit.DAILY_API_REQUESTS,
          "sf2loki paces itself by the Sforce-Limit-Info header; nothing to change");
    }
    return judge(daily.get());
  }

  private CheckResult judge(OrgLimit daily) {
    long allowance = budget.allowance(daily.max());
    String left = daily.remaining() + " of " + daily.max() + " calls left in the rolling 24h";
    String share =
        "sf2loki's share (salesforce.api_share "
            + BigDecimal.valueOf(budget.share()).stripTrailingZeros().toPlainString()
            + ")";
    if (daily.remaining() <= 0) {
      return new CheckResult.Fail(
          "the org is out of API calls now: " + left + "; " + share + " is " + allowance + " calls",
          OUT_OF_CALLS);
    }
    if (daily.remaining() < allowance) {
      return new CheckResult.Warn(
          left
              + ", fewer than the "
              + allowance
              + " calls of "
              + share
              + ": other integrations use most of the allocation and sf2loki would be slowed or"
              + " paused",
          "lengthen the sources' poll_interval or lower salesforce.api_share, or ask Salesforce"
              + " for a larger allocation");
    }
    return new CheckResult.Pass(left + "; " + share + " is " + allowance + " calls");
  }
}
