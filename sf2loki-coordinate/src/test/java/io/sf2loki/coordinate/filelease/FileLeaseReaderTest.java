package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease document rules of operations §2.3, shared by the coordinator and the inspector. */
class FileLeaseReaderTest {

  private final FileLeaseReader reader = new FileLeaseReader();

  private LeaseRead parse(String text) {
    return reader.parse(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsThePythonDocument() {
    LeaseRead read =
        parse("{\"holder\": \"h-1\", \"expires_at\": \"2026-01-01T12:00:30+00:00\", \"epoch\": 3}");

    assertThat(read)
        .isEqualTo(
            new LeaseRead.Present(
                new FileLeaseDocument("h-1", Instant.parse("2026-01-01T12:00:30Z"), 3)));
  }

  @Test
  void writtenDocumentRoundTripsWithAnExplicitUtcOffset() {
    FileLeaseDocument doc =
        new FileLeaseDocument("a\"b", Instant.parse("2026-01-01T12:00:30.5Z"), 12);

    String json = new String(doc.toJson(), StandardCharsets.UTF_8);

    assertThat(json).contains("\"expires_at\": \"2026-01-01T12:00:30.500000+00:00\"");
    assertThat(reader.parse(doc.toJson())).isEqualTo(new LeaseRead.Present(doc));
  }

  @Test
  void naiveExpiryIsUtc() {
    LeaseRead read = parse("{\"holder\": \"h\", \"expires_at\": \"2026-01-01T12:00:30\"}");

    assertThat(((LeaseRead.Present) read).document().expiresAt())
        .isEqualTo(Instant.parse("2026-01-01T12:00:30Z"));
  }

  @Test
  void missingOrNonIntegerEpochIsZero() {
    assertThat(parse("{\"holder\": \"h\", \"expires_at\": \"2026-01-01T12:00:30Z\"}").epoch())
        .isZero();
    assertThat(
            parse("{\"holder\": \"h\", \"expires_at\": \"2026-01-01T12:00:30Z\", \"epoch\": \"7\"}")
                .epoch())
        .isZero();
    assertThat(
            parse("{\"holder\": \"h\", \"expires_at\": \"2026-01-01T12:00:30Z\", \"epoch\": 2.5}")
                .epoch())
        .isZero();
  }

  @Test
  void malformedDocumentsAreCorruptNotErrors() {
    assertThat(parse("")).isInstanceOf(LeaseRead.Corrupt.class);
    assertThat(parse("{\"holder\": \"h\", \"expi")).isInstanceOf(LeaseRead.Corrupt.class);
    assertThat(parse("[1, 2]")).isInstanceOf(LeaseRead.Corrupt.class);
    assertThat(parse("{\"holder\": 1, \"expires_at\": \"2026-01-01T12:00:30Z\"}"))
        .isInstanceOf(LeaseRead.Corrupt.class);
    assertThat(parse("{\"holder\": \"h\", \"expires_at\": \"tomorrow\"}"))
        .isInstanceOf(LeaseRead.Corrupt.class);
    assertThat(reader.parse(new byte[] {(byte) 0xff, (byte) 0xfe}))
        .isInstanceOf(LeaseRead.Corrupt.class);
  }

  @Test
  void missingFileIsAbsentAndOtherIoErrorsAreUnknown(@TempDir Path dir) throws Exception {
    assertThat(reader.read(dir.resolve("nope"))).isInstanceOf(LeaseRead.Absent.class);
    Path directory = Files.createDirectory(dir.resolve("is-a-directory"));
    assertThat(reader.read(directory)).isInstanceOf(LeaseRead.Unknown.class);
  }
}
