package io.sf2loki.source.pubsub.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class ChangeBitmapsTest {

  /** 31 top-level fields f0..f30, so every bit of the worked example names one. */
  private static Schema wide() {
    StringBuilder fields = new StringBuilder();
    for (int i = 0; i < 31; i++) {
      fields
          .append(i == 0 ? "" : ",")
          .append("{\"name\":\"f")
          .append(i)
          .append("\",\"type\":\"int\"}");
    }
    return new Schema.Parser()
        .parse("{\"type\":\"record\",\"name\":\"W\",\"fields\":[" + fields + "]}");
  }

  @Test
  void theWorkedExampleSetsBitsCountedFromTheLeastSignificantEnd() throws Exception {
    assertThat(ChangeBitmaps.names(wide(), List.of("0x650004E0")))
        .containsExactly("f5", "f6", "f7", "f10", "f24", "f26", "f29", "f30");
  }

  @Test
  void oddLengthHexDecodes() throws Exception {
    assertThat(ChangeBitmaps.names(wide(), List.of("0x101"))).containsExactly("f0", "f8");
  }

  @Test
  void aCompoundElementNamesTheNestedFieldUnderItsParent() throws Exception {
    Schema account =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"H\",\"type\":\"int\"},"
                    + "{\"name\":\"Addr\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"Ad\","
                    + "\"fields\":[{\"name\":\"Street\",\"type\":\"string\"},{\"name\":\"City\","
                    + "\"type\":\"string\"}]}]}]}");
    assertThat(ChangeBitmaps.names(account, List.of("0x2", "1-0x2")))
        .containsExactly("Addr", "Addr.City");
  }

  @Test
  void aBitBeyondTheSchemaIsMalformed() {
    assertThatThrownBy(() -> ChangeBitmaps.names(wide(), List.of("0x80000000")))
        .isInstanceOf(ChangeBitmaps.MalformedBitmapException.class);
  }

  @Test
  void aNonHexElementIsMalformed() {
    assertThatThrownBy(() -> ChangeBitmaps.names(wide(), List.of("0xZZ")))
        .isInstanceOf(ChangeBitmaps.MalformedBitmapException.class);
  }
}
