package io.sf2loki.salesforce.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.config.SalesforceConfig;
import io.sf2loki.config.SalesforceConfig.AuthMode;
import io.sf2loki.spi.Secret;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenErrorRemedyTest {

  private static SalesforceConfig config(AuthMode mode) {
    return new SalesforceConfig(
        URI.create("https://login.salesforce.com"),
        "production",
        mode,
        "cid",
        Optional.of("integration@example.com"),
        Optional.of(Secret.of("pem")),
        Optional.of(Secret.of("secret")),
        "60.0",
        Duration.ofHours(1),
        Optional.empty(),
        Duration.ofSeconds(30),
        Optional.empty());
  }

  private static TokenErrorRemedy decode(AuthMode mode, int status, String error, String text) {
    AuthException e = new AuthException(status, error, text, "token request failed", null);
    return TokenErrorRemedy.of(e, config(mode));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "invalid_grant|user hasn't approved this consumer|Admin approved users are pre-authorized",
        "invalid_grant|audience is invalid|https://test.salesforce.com",
        "invalid_grant|expired authorization code|NTP",
        "invalid_grant|invalid assertion: signature verification failed|certificate",
        "invalid_grant|authentication failure|production vs sandbox",
        "invalid_grant|inactive user|activate the user",
        "invalid_app_access|user is not admin approved to access this app|Permission Sets",
        "invalid_client_id|client identifier invalid|Consumer Key",
        "invalid_request|invalid assertion type|refresh_token",
        "unsupported_grant_type|grant type not supported|Use digital signatures",
      })
  void aJwtBearerTokenErrorNamesWhatToChange(String error, String description, String hint) {
    TokenErrorRemedy remedy = decode(AuthMode.JWT_BEARER, 400, error, description);

    assertThat(remedy.code()).isEqualTo(error);
    assertThat(remedy.remedy()).contains(hint);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "invalid_client|invalid client credentials|client_secret",
        "invalid_grant|no client credentials user enabled|Run As user",
        "invalid_grant|request not supported on this domain|My Domain",
        "unsupported_grant_type|grant type not supported|Client Credentials Flow",
      })
  void aClientCredentialsTokenErrorNamesWhatToChange(
      String error, String description, String hint) {
    TokenErrorRemedy remedy = decode(AuthMode.CLIENT_CREDENTIALS, 400, error, description);

    assertThat(remedy.remedy()).contains(hint);
  }

  @Test
  void anUnreachableTokenEndpointPointsAtTheLoginUrlAndTheNetwork() {
    TokenErrorRemedy remedy = decode(AuthMode.JWT_BEARER, 0, "", "");

    assertThat(remedy.code()).isEqualTo("transport");
    assertThat(remedy.remedy()).contains("salesforce.login_url").contains("salesforce.proxy");
  }

  @Test
  void aServerErrorIsReportedAsSalesforcesAndNotAsACredentialProblem() {
    TokenErrorRemedy remedy = decode(AuthMode.CLIENT_CREDENTIALS, 503, "", "");

    assertThat(remedy.code()).isEqualTo("server_error");
    assertThat(remedy.cause()).contains("503");
  }

  @Test
  void anUnknownErrorCodeStillNamesTheFlowToCheck() {
    TokenErrorRemedy remedy = decode(AuthMode.CLIENT_CREDENTIALS, 403, "", "");

    assertThat(remedy.code()).isEqualTo("http_403");
    assertThat(remedy.remedy()).contains("client_credentials");
  }
}
