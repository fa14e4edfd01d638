package io.sf2loki.cli.doctor;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.TokenErrorRemedy;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.spi.Causes;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code auth}: mints a token with the configured flow (one request, no retry) and asks userinfo
 * for the org id. A token endpoint that did not answer or failed with a 5xx is "Salesforce
 * unreachable" with the cause; a refused token request is decoded by {@link TokenErrorRemedy}; a
 * configured {@code salesforce.org_id} that is not the token's org is a FAIL.
 */
final class AuthCheck implements Check {

  static final String NAME = "auth";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CheckResult run(DoctorContext context) throws InterruptedException {
    SalesforceConfig config = context.config().salesforce();
    String flow = config.authMode().name().toLowerCase(Locale.ROOT);
    AccessToken token;
    try {
      token = context.salesforce().token();
    } catch (AuthException e) {
      TokenErrorRemedy remedy = TokenErrorRemedy.of(e, config);
      if (e.unreachable()) {
        return new CheckResult.Fail(
            "Salesforce unreachable (" + remedy.code() + "): " + Causes.chain(e), remedy.remedy());
      }
      return new CheckResult.Fail(
          flow + ": " + remedy.code() + ": " + remedy.cause(), remedy.remedy());
    }
    String minted = "flow=" + flow + " instance_url=" + token.instanceUrl();
    Optional<String> configured = config.orgId();
    String orgId;
    try {
      orgId = context.salesforce().orgId();
    } catch (SalesforceApiException | AuthException e) {
      String detail = minted + "; userinfo failed: " + e.getMessage();
      String fix = "give the connected app the openid scope (userinfo names the org id)";
      return configured.isPresent()
          ? new CheckResult.Warn(detail + " (salesforce.org_id is unverified)", fix)
          : new CheckResult.Fail(detail, fix + ", or set salesforce.org_id");
    }
    if (configured.isPresent() && !sameOrg(configured.get(), orgId)) {
      return new CheckResult.Fail(
          minted + ": the token belongs to org " + orgId + ", not to " + configured.get(),
          "set salesforce.org_id to " + orgId + " or point the credentials at the intended org");
    }
    return new CheckResult.Pass(minted + " org_id=" + orgId);
  }

  /** 15- and 18-character ids of one org share their first 15 characters. */
  private static boolean sameOrg(String a, String b) {
    return a.length() >= 15 && b.length() >= 15 && a.substring(0, 15).equals(b.substring(0, 15));
  }
}
