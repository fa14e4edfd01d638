package io.sf2loki.salesforce.limits;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class OrgLimitTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void readsEveryEntryWithMaxAndRemaining() throws Exception {
    assertThat(
            OrgLimit.parse(
                JSON.readTree(
                    "{\"DailyApiRequests\":{\"Max\":15000,\"Remaining\":14312,"
                        + "\"Ant Migration Tool\":{\"Max\":0,\"Remaining\":0}},"
                        + "\"DataStorageMB\":{\"Max\":1024,\"Remaining\":1000}}")))
        .containsExactly(
            new OrgLimit("DailyApiRequests", 15000, 14312),
            new OrgLimit("DataStorageMB", 1024, 1000));
  }

  @Test
  void skipsEntriesWithoutIntegerMaxAndRemaining() throws Exception {
    assertThat(
            OrgLimit.parse(
                JSON.readTree(
                    "{\"A\":{\"Max\":\"many\",\"Remaining\":1},\"B\":{\"Max\":1.5,\"Remaining\":1},"
                        + "\"C\":{\"Remaining\":1},\"D\":7,\"E\":{\"Max\":3,\"Remaining\":2}}")))
        .containsExactly(new OrgLimit("E", 3, 2));
  }
}
