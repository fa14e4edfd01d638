package io.sf2loki.source.pubsub.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.source.pubsub.ChangeEvents;
import io.sf2loki.testkit.pubsub.TopicSchemas;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class AvroPayloadsTest {

  private static final Schema ACCOUNT = TopicSchemas.accountChangeEvent();

  private static byte[] account() {
    Map<String, Object> fields = new LinkedHashMap<>(ChangeEvents.update(List.of("0x2"), "Acme"));
    fields.put("BillingAddress", Map.of("City", "Lyon"));
    fields.put("LastModifiedDate", 1_780_000_000_000L);
    return TopicSchemas.encode(ACCOUNT, fields);
  }

  @Test
  void unionsUnwrapRecordsNestEnumsBecomeTheirSymbolAndDatetimesStayEpochMillis() throws Exception {
    Map<String, Object> decoded = AvroPayloads.decode(ACCOUNT, account());
    assertThat(decoded).containsEntry("Name", "Acme").containsEntry("Type", null);
    assertThat(decoded.get("LastModifiedDate")).isEqualTo(1_780_000_000_000L);
    assertThat(decoded.get("BillingAddress")).isEqualTo(addressWithCity("Lyon"));
    @SuppressWarnings("unchecked")
    Map<String, Object> header = (Map<String, Object>) decoded.get("ChangeEventHeader");
    assertThat(header)
        .containsEntry("changeType", "UPDATE")
        .containsEntry("recordIds", List.of("001000000000001AAA"))
        .containsEntry("commitTimestamp", 1_780_000_000_123L);
  }

  @Test
  void trailingBytesAfterTheRecordDoNotDecode() {
    byte[] payload = account();
    byte[] longer = Arrays.copyOf(payload, payload.length + 1);
    assertThatThrownBy(() -> AvroPayloads.decode(ACCOUNT, longer))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("trailing");
  }

  @Test
  void aTruncatedPayloadDoesNotDecode() {
    byte[] payload = account();
    byte[] shorter = Arrays.copyOf(payload, payload.length / 2);
    assertThatThrownBy(() -> AvroPayloads.decode(ACCOUNT, shorter)).isInstanceOf(IOException.class);
  }

  private static Map<String, Object> addressWithCity(String city) {
    Map<String, Object> address = new LinkedHashMap<>();
    for (String f : List.of("Street", "City", "State", "PostalCode", "Country")) {
      address.put(f, f.equals("City") ? city : null);
    }
    return address;
  }
}
