package io.sf2loki.salesforce.auth;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.config.SalesforceConfig.AuthMode;
import java.util.Locale;
import java.util.Objects;

/**
 * What a failed token request means and what an operator changes to fix it, decoded from the token
 * endpoint's {@code error} and {@code error_description} for the configured flow. Used by {@code
 * doctor}; the daemon may print the same one-line remedy. Never carries a secret.
 *
 * @param code Salesforce's {@code error} ({@code invalid_grant}, ...), or {@code transport}, {@code
 *     server_error} when the endpoint did not answer with an OAuth error
 * @param cause one line: what is wrong
 * @param remedy one line: what to change
 */
public record TokenErrorRemedy(String code, String cause, String remedy) {

  public TokenErrorRemedy {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(cause, "cause");
    Objects.requireNonNull(remedy, "remedy");
  }

  /** Decodes {@code e}, a failure of the flow {@code config} selects. */
  public static TokenErrorRemedy of(AuthException e, SalesforceConfig config) {
    String description = e.description().orElse("").toLowerCase(Locale.ROOT);
    boolean jwt = config.authMode() == AuthMode.JWT_BEARER;
    String login = config.loginUrl().toString();
    if (e.status() == 0) {
      return new TokenErrorRemedy(
          "transport",
          "the token endpoint at " + login + " did not answer",
          "check salesforce.login_url, DNS and the network path (salesforce.proxy if you need one)");
    }
    if (e.status() >= 500) {
      return new TokenErrorRemedy(
          "server_error",
          "Salesforce's token endpoint failed with HTTP " + e.status(),
          "retry later; check https://status.salesforce.com for your instance");
    }
    String error = e.error().orElse("");
    return switch (error) {
      case "invalid_client_id" ->
          new TokenErrorRemedy(
              error,
              "Salesforce knows no connected app with salesforce.client_id at " + login,
              "set salesforce.client_id to the app's Consumer Key (a new app takes up to 10"
                  + " minutes to work) and check that login_url belongs to the app's org");
      case "invalid_client" -> invalidClient(error, description, jwt);
      case "invalid_grant" -> invalidGrant(description, jwt, login);
      case "invalid_app_access" ->
          new TokenErrorRemedy(
              error,
              "the user is not admin-approved for the connected app",
              "add the user's profile or a permission set of the user to the connected app"
                  + " (Manage Connected Apps > the app > Profiles / Permission Sets)");
      case "unsupported_grant_type" ->
          new TokenErrorRemedy(
              error,
              "the connected app does not allow the " + flow(jwt) + " flow",
              jwt
                  ? "enable OAuth settings and 'Use digital signatures' on the connected app"
                  : "enable 'Client Credentials Flow' in the connected app's OAuth settings");
      case "invalid_request" ->
          new TokenErrorRemedy(
              error,
              "Salesforce refused the token request as malformed"
                  + (description.isEmpty() ? "" : " (" + description + ")"),
              jwt
                  ? "give the connected app the refresh_token, offline_access scope, which the JWT"
                      + " flow requires"
                  : "check salesforce.client_id and client_secret for stray characters");
      case "malformed_response" ->
          new TokenErrorRemedy(
              error,
              login + " answered with something that is not a Salesforce token response",
              "point salesforce.login_url at the org's login host or My Domain URL");
      default ->
          new TokenErrorRemedy(
              error.isEmpty() ? "http_" + e.status() : error,
              "the token endpoint refused the request with HTTP " + e.status(),
              "check salesforce.login_url, client_id and the credentials of the " + flow(jwt));
    };
  }

  private static TokenErrorRemedy invalidClient(String error, String description, boolean jwt) {
    if (!jwt) {
      return new TokenErrorRemedy(
          error,
          "the client secret does not match the connected app",
          "set salesforce.client_secret (or client_secret_file) to the app's Consumer Secret");
    }
    return new TokenErrorRemedy(
        error,
        "the connected app rejected the client" + (description.isEmpty() ? "" : ": " + description),
        "check salesforce.client_id is the Consumer Key of the app holding your certificate");
  }

  private static TokenErrorRemedy invalidGrant(String description, boolean jwt, String login) {
    String error = "invalid_grant";
    if (description.contains("hasn't approved") || description.contains("not approved")) {
      return new TokenErrorRemedy(
          error,
          "the user is not pre-authorised for the connected app (or salesforce.username is unknown"
              + " at "
              + login
              + ")",
          "set the app's Permitted Users to 'Admin approved users are pre-authorized', add the"
              + " user's profile or permission set, and check salesforce.username");
    }
    if (description.contains("audience")) {
      return new TokenErrorRemedy(
          error,
          "the JWT audience " + login + " is not the login host of the user's org",
          "set salesforce.login_url to https://login.salesforce.com (production),"
              + " https://test.salesforce.com (sandbox) or the org's My Domain URL");
    }
    if (description.contains("expired")) {
      return new TokenErrorRemedy(
          error,
          "the JWT assertion had already expired when Salesforce read it: this host's clock is"
              + " behind",
          "synchronise this host's clock (NTP); assertions are valid for 180 s");
    }
    if (description.contains("assertion") || description.contains("signature")) {
      return new TokenErrorRemedy(
          error,
          "the JWT signature does not verify against the connected app's certificate",
          "upload the certificate of salesforce.private_key to the app ('Use digital signatures')");
    }
    if (description.contains("not supported on this domain")) {
      return new TokenErrorRemedy(
          error,
          "the client credentials flow is not served on " + login,
          "set salesforce.login_url to the org's My Domain URL (https://<domain>.my.salesforce.com)");
    }
    if (description.contains("client credentials user")) {
      return new TokenErrorRemedy(
          error,
          "the connected app has no Run As user for the client credentials flow",
          "in the app's policies enable Client Credentials Flow and set its Run As user");
    }
    if (description.contains("inactive")) {
      return new TokenErrorRemedy(
          error,
          "the integration user is inactive",
          "activate the user, or configure an active one");
    }
    if (description.contains("ip restricted") || description.contains("login hours")) {
      return new TokenErrorRemedy(
          error,
          "the user's profile forbids logins from this address or at this hour",
          "relax IP restrictions on the connected app or add this host to the login IP ranges");
    }
    if (description.contains("authentication failure")) {
      return new TokenErrorRemedy(
          error,
          "no active user " + (jwt ? "salesforce.username " : "") + "can log in at " + login,
          "check salesforce.username and that login_url is production vs sandbox as intended");
    }
    return new TokenErrorRemedy(
        error,
        "the "
            + flow(jwt)
            + " grant was refused"
            + (description.isEmpty() ? "" : ": " + description),
        jwt
            ? "check that the user is pre-authorised, login_url is the org's login host and the"
                + " app's certificate matches salesforce.private_key"
            : "check the app's Client Credentials Flow and its Run As user");
  }

  private static String flow(boolean jwt) {
    return jwt ? "jwt_bearer" : "client_credentials";
  }
}
