package io.sf2loki.salesforce.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class LimitInfoTest {

  @Test
  void readsApiUsage() {
    assertThat(LimitInfo.parse(Optional.of("api-usage=18/5000")))
        .isEqualTo(new LimitInfo.Usage(18, 5000));
  }

  @Test
  void readsApiUsageAmongOtherParts() {
    assertThat(
            LimitInfo.parse(
                Optional.of("per-app-api-usage=17/250(appName=sample), api-usage=19/5000")))
        .isEqualTo(new LimitInfo.Usage(19, 5000));
  }

  @Test
  void aHeaderWithoutNumbersIsMalformed() {
    assertThat(LimitInfo.parse(Optional.of("api-usage=lots")))
        .isEqualTo(new LimitInfo.Malformed("api-usage=lots"));
  }

  @Test
  void aHeaderWithoutApiUsageIsMalformed() {
    assertThat(LimitInfo.parse(Optional.of("per-app-api-usage=1/2(appName=x)")))
        .isInstanceOf(LimitInfo.Malformed.class);
  }

  @Test
  void aZeroLimitIsMalformed() {
    assertThat(LimitInfo.parse(Optional.of("api-usage=0/0")))
        .isInstanceOf(LimitInfo.Malformed.class);
  }

  @Test
  void numbersTooLongForALongAreMalformed() {
    assertThat(LimitInfo.parse(Optional.of("api-usage=1/99999999999999999999")))
        .isInstanceOf(LimitInfo.Malformed.class);
  }

  @Test
  void noHeaderIsAbsent() {
    assertThat(LimitInfo.parse(Optional.empty())).isEqualTo(new LimitInfo.Absent());
  }
}
