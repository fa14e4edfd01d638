package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GzipTest {

  @ParameterizedTest(name = "level {0}")
  @ValueSource(ints = {1, 6, 9})
  void aCompressibleBodyGunzipsToItself(int level) throws IOException {
    byte[] raw =
        "{\"EVENT_TYPE\":\"Login\",\"USER_ID\":\"005D00000010\"}\n"
            .repeat(5000)
            .getBytes(StandardCharsets.UTF_8);

    byte[] gz = Gzip.compress(raw, level);

    assertThat(gz.length).isLessThan(raw.length / 10);
    assertThat(gunzip(gz)).isEqualTo(raw);
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {0, 1, 100, 300_000})
  void anIncompressibleBodyLargerThanTheFirstGuessStillGunzipsToItself(int size)
      throws IOException {
    byte[] raw = new byte[size];
    new Random(7).nextBytes(raw);

    assertThat(gunzip(Gzip.compress(raw, 1))).isEqualTo(raw);
  }

  private static byte[] gunzip(byte[] gz) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return in.readAllBytes();
    }
  }
}
