package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OtlpAnswersTest {

  @Test
  void lokisStatusSentAsOctetStreamIsReadForItsMessage() {
    // Loki's OTLPError: google.rpc.Status with the code left out, as application/octet-stream.
    byte[] text =
        "entry for stream '{a=\"b\"}' has timestamp too old".getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(2 << 3 | 2);
    body.write(text.length);
    body.write(text, 0, text.length);

    assertThat(OtlpAnswers.errorText("application/octet-stream", body.toByteArray()))
        .isEqualTo("entry for stream '{a=\"b\"}' has timestamp too old");
  }
}
