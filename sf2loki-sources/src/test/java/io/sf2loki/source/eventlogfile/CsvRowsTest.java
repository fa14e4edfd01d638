package io.sf2loki.source.eventlogfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CsvRowsTest {

  private static List<Map<String, String>> rows(String csv) throws IOException {
    List<Map<String, String>> out = new ArrayList<>();
    try (CsvRows rows =
        new CsvRows(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)))) {
      rows.forEachRemaining(out::add);
    }
    return out;
  }

  @Test
  void quotedFieldsMayHoldNewlinesCommasAndDoubledQuotes() throws IOException {
    List<Map<String, String>> r =
        rows("\"A\",\"B\"\r\n\"line1\nline2\",\"say \"\"hi\"\", ok\"\r\n");
    assertThat(r).containsExactly(Map.of("A", "line1\nline2", "B", "say \"hi\", ok"));
  }

  @Test
  void schemaComesFromTheHeaderRow() throws IOException {
    assertThat(rows("\"X\",\"Y\",\"Z\"\n\"1\",\"2\",\"3\"\n").get(0))
        .containsExactly(Map.entry("X", "1"), Map.entry("Y", "2"), Map.entry("Z", "3"));
  }

  @Test
  void extraCellsAreJoinedUnderExtraAndShortRowsArePadded() throws IOException {
    List<Map<String, String>> r = rows("\"A\",\"B\"\n\"1\",\"2\",\"3\",\"4,5\"\n\"only\"\n");
    assertThat(r.get(0)).containsEntry("_extra", "3,4,5").containsEntry("B", "2");
    assertThat(r.get(1)).isEqualTo(Map.of("A", "only", "B", ""));
  }

  @Test
  void emptyBodyAndHeaderOnlyBodyHaveNoRows() throws IOException {
    assertThat(rows("")).isEmpty();
    assertThat(rows("\"A\",\"B\"\n")).isEmpty();
  }

  @Test
  void invalidUtf8IsReplacedNotFatal() throws IOException {
    byte[] bytes = {'"', 'A', '"', '\n', '"', (byte) 0xff, 'x', '"', '\n'};
    try (CsvRows rows = new CsvRows(new ByteArrayInputStream(bytes))) {
      assertThat(rows.next().get("A")).isEqualTo("\uFFFDx");
    }
  }

  @Test
  void unterminatedQuoteIsAParseError() {
    assertThatThrownBy(() -> rows("\"A\"\n\"never closed\n"))
        .isInstanceOf(UncheckedIOException.class);
  }

  @Test
  void rowsAreReadLazilyFromTheStream() throws IOException {
    CountingStream body = new CountingStream(1_000_000);
    try (CsvRows rows = new CsvRows(body)) {
      assertThat(rows.next()).containsEntry("N", "0");
      // one row is parsed from a small read-ahead buffer, not from the whole 1M-row body
      assertThat(body.served).isLessThan(200_000);
      assertThat(rows.next()).containsEntry("N", "1");
    }
  }

  /** A CSV body of {@code n} rows generated on demand, counting the bytes handed out. */
  private static final class CountingStream extends InputStream {
    private final long rows;
    private long next = -1;
    private byte[] current = "\"N\"\n".getBytes(StandardCharsets.UTF_8);
    private int pos;
    long served;

    CountingStream(long rows) {
      this.rows = rows;
    }

    @Override
    public int read() {
      if (pos == current.length) {
        if (++next >= rows) {
          return -1;
        }
        current = ("\"" + next + "\"\n").getBytes(StandardCharsets.UTF_8);
        pos = 0;
      }
      served++;
      return current[pos++];
    }
  }
}
