package io.sf2loki.salesforce.org;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.ApiErrorException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.OrgLoginException;
import java.net.URI;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the id of the org a token belongs to without configuration: the identity URL Salesforce
 * sends with every token ({@code https://login.salesforce.com/id/<org id>/<user id>}) names it;
 * when a response lacks it, {@code GET /services/oauth2/userinfo} answers {@code organization_id}.
 */
final class OrgIds {

  private static final Pattern ORG_ID = Pattern.compile("00D[0-9A-Za-z]{12}(?:[0-9A-Za-z]{3})?");
  private static final Pattern IDENTITY_PATH =
      Pattern.compile(".*/id/(" + ORG_ID.pattern() + ")/[0-9A-Za-z]{15,18}/?");
  static final String USERINFO = "/services/oauth2/userinfo";

  private OrgIds() {}

  /** The org id an identity URL names, when it has the documented shape. */
  static Optional<String> fromIdentityUrl(URI identityUrl) {
    String path = identityUrl.getRawPath();
    Matcher m = IDENTITY_PATH.matcher(path == null ? "" : path);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /**
   * The org id of {@code token}: from its identity URL, else from userinfo.
   *
   * @throws OrgLoginException transient when userinfo failed in a way a retry may fix (5xx,
   *     transport, a token that could not be minted again), permanent when it refused the token or
   *     named no org (userinfo needs the connected app's {@code openid} scope)
   */
  static String resolve(AccessToken token, SalesforceRestClient rest)
      throws OrgLoginException, InterruptedException {
    Optional<String> named = token.identityUrl().flatMap(OrgIds::fromIdentityUrl);
    if (named.isPresent()) {
      return named.get();
    }
    JsonNode info;
    try {
      info = rest.getJson(USERINFO);
    } catch (AuthException e) {
      throw new OrgLoginException(
          "Salesforce login failed: " + e.getMessage(), e.failureClass(), e);
    } catch (ApiErrorException e) {
      if (e.status() >= 400 && e.status() < 500) {
        throw unresolved("userinfo answered " + e.status(), e);
      }
      throw unavailable(e);
    } catch (SalesforceApiException e) {
      throw unavailable(e);
    }
    String id = info.path("organization_id").asText("");
    if (!ORG_ID.matcher(id).matches()) {
      throw unresolved("userinfo named no organization_id", null);
    }
    return id;
  }

  private static OrgLoginException unavailable(SalesforceApiException e) {
    return new OrgLoginException(
        "cannot resolve the Salesforce org id: " + e.getMessage(),
        FailureClass.transientFailure("auth_unavailable", USERINFO),
        e);
  }

  private static OrgLoginException unresolved(String what, Exception cause) {
    return new OrgLoginException(
        "cannot resolve the Salesforce org id: " + what,
        FailureClass.permanent(
            "auth_org_id_unresolved",
            USERINFO,
            "set salesforce.org_id, or give the connected app the openid scope that userinfo"
                + " needs"),
        cause);
  }
}
