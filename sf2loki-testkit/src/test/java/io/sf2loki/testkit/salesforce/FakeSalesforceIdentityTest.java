package io.sf2loki.testkit.salesforce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Who a token belongs to, as Salesforce tells it: the identity URL of every token response, and
 * userinfo, which needs the connected app's {@code openid} scope; and the count of token requests a
 * client made.
 */
class FakeSalesforceIdentityTest {

  private static FakeSalesforce.Builder org() {
    return FakeSalesforce.builder().clientId("cid").clientSecret("shh").orgId("00D5g000004ABCDEAQ");
  }

  @Test
  void aTokenResponseNamesTheOrgInItsIdentityUrlAndListsTheAppsScopes() throws Exception {
    try (FakeSalesforce sf = org().build()) {
      JsonNode token = Json.read(new SalesforceHttp(sf.uri()).token().body());

      assertThat(token.path("id").asText())
          .isEqualTo(sf.baseUrl() + "/id/00D5g000004ABCDEAQ/005000000000001AAA");
      assertThat(token.path("scope").asText()).isEqualTo("api openid refresh_token");
    }
  }

  @Test
  void userinfoNamesTheOrgToATokenOfAnAppWithTheOpenidScope() throws Exception {
    try (FakeSalesforce sf = org().build()) {
      SalesforceHttp http = new SalesforceHttp(sf.uri());

      HttpResponse<String> r = http.get(http.accessToken(), "/services/oauth2/userinfo");

      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(Json.read(r.body()).path("organization_id").asText())
          .isEqualTo("00D5g000004ABCDEAQ");
    }
  }

  @Test
  void userinfoRefusesATokenOfAnAppWithoutTheOpenidScope() throws Exception {
    try (FakeSalesforce sf = org().scopes("api", "refresh_token").build()) {
      SalesforceHttp http = new SalesforceHttp(sf.uri());
      JsonNode token = Json.read(http.token().body());

      HttpResponse<String> r =
          http.get(token.path("access_token").asText(), "/services/oauth2/userinfo");

      assertThat(token.path("scope").asText()).isEqualTo("api refresh_token");
      assertThat(r.statusCode()).isEqualTo(403);
      assertThat(Json.read(r.body()).path("error").asText()).isEqualTo("insufficient_scope");
      assertThat(r.headers().firstValue("WWW-Authenticate"))
          .hasValueSatisfying(v -> assertThat(v).contains("insufficient_scope"));
    }
  }

  @Test
  void everyTokenRequestIsCountedAndOnlyGrantedOnesMintATokenOfTheirOwn() throws Exception {
    try (FakeSalesforce sf = org().build()) {
      SalesforceHttp http = new SalesforceHttp(sf.uri());
      sf.inject(Fault.serverError(Fault.Route.TOKEN));

      assertThat(http.token().statusCode()).isEqualTo(500);
      String first = http.accessToken();
      String second = http.accessToken();

      assertThat(sf.stats().requests(Fault.Route.TOKEN)).isEqualTo(3);
      assertThat(sf.tokensIssued()).isEqualTo(2);
      assertThat(first).isNotEqualTo(second);
    }
  }
}
