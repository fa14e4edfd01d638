package io.sf2loki.testkit.salesforce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.testkit.ScaledTimeout;
import org.junit.jupiter.api.Test;

/** The builder's options are fixed when the org starts; build() is start() without IOException. */
@ScaledTimeout(seconds = 10)
class FakeSalesforceBuilderTest {

  @Test
  void changingTheBuilderAfterStartChangesNoRunningOrg() throws Exception {
    FakeSalesforce.Builder builder = FakeSalesforce.builder().clientId("cid").clientSecret("shh");
    try (FakeSalesforce sf = builder.start()) {
      builder.clientSecret("other").orgId("00D000000000002AAA");

      SalesforceHttp http = new SalesforceHttp(sf.uri());
      String token = http.accessToken();
      JsonNode userinfo = Json.read(http.get(token, "/services/oauth2/userinfo").body());
      assertThat(userinfo.path("organization_id").asText()).isEqualTo("00D000000000001AAA");
    }
  }

  @Test
  void buildStartsAnOrgAtItsUri() throws Exception {
    try (FakeSalesforce sf = FakeSalesforce.builder().clientId("cid").clientSecret("shh").build()) {
      assertThat(sf.uri()).isEqualTo(sf.baseUrl());
      assertThat(sf.uri().getPath()).isEmpty();
      assertThat(new SalesforceHttp(sf.uri()).token().statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aQueryBatchSizeBelowOneIsRefused() {
    assertThatThrownBy(() -> FakeSalesforce.builder().queryBatchSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }
}
