package io.sf2loki.testkit.salesforce;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Generates a {@code LogFile} CSV body the way Salesforce writes it: a quoted header row, every
 * value double-quoted with embedded quotes doubled, numbers as quoted strings, {@code TIMESTAMP} in
 * the compact form and {@code TIMESTAMP_DERIVED} in ISO form. "Tricky" files add quoted newlines,
 * commas, doubled quotes, non-ASCII text, CRLF separators and ragged rows (too many or too few
 * cells).
 *
 * <p>Rows are computed from the seed and their index only, so any file size streams in constant
 * memory and a test can recompute exactly what it expects. The columns are a {@link LogFileSchema}
 * ({@link LogFileSchema#STANDARD} unless the type's schema was changed): a known column keeps its
 * generated value, another one gets {@code <name in lower case>-<row index>}.
 */
public final class LogFileCsv {

  static final List<String> HEADER = LogFileSchema.STANDARD.names();

  private static final DateTimeFormatter COMPACT =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss.SSS").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final String[] MESSAGES = {
    "ok", "first line\nsecond line", "say \"hi\", then leave", "Zürich ✓ 😀", "a,b,c", ""
  };

  static final long EXACT_LENGTH_ROWS = 20_000;

  private final LogFileSpec spec;
  private final String orgId;
  private final List<String> header;

  /** A body with the standard columns. */
  public LogFileCsv(LogFileSpec spec, String orgId) {
    this(spec, orgId, LogFileSchema.STANDARD);
  }

  /** A body with {@code schema}'s columns. */
  public LogFileCsv(LogFileSpec spec, String orgId, LogFileSchema schema) {
    this.spec = spec;
    this.orgId = orgId;
    this.header = schema.names();
  }

  /** The column names of the header row. */
  public List<String> header() {
    return header;
  }

  /** The event time of row {@code index}, spread evenly over the file's hour or day. */
  public Instant rowTime(long index) {
    Duration span = spec.interval().equals("Hourly") ? Duration.ofHours(1) : Duration.ofDays(1);
    long step = spec.rows() == 0 ? 0 : span.toMillis() / (spec.rows() + 1);
    return spec.logDate().plusMillis(step * (index + 1));
  }

  /** The cells of data row {@code index} (0-based), as written. */
  public List<String> cells(long index) {
    List<String> standard = standardCells(index);
    if (header.equals(HEADER)) {
      return standard;
    }
    List<String> cells = new ArrayList<>(header.size() + 2);
    for (String name : header) {
      int i = HEADER.indexOf(name);
      cells.add(i >= 0 ? standard.get(i) : name.toLowerCase(java.util.Locale.ROOT) + "-" + index);
    }
    raggedness(cells, index);
    return cells;
  }

  private List<String> standardCells(long index) {
    SplittableRandom random = new SplittableRandom(spec.seed() * 31 + index);
    Instant t = rowTime(index);
    String user = "005" + pad12(random.nextLong(1_000_000_000L)) + "AAA";
    String message = spec.tricky() ? MESSAGES[(int) (index % MESSAGES.length)] : "ok";
    List<String> cells = new ArrayList<>(HEADER.size() + 2);
    Collections.addAll(
        cells,
        spec.eventType(),
        COMPACT.format(t),
        "4" + Long.toHexString(random.nextLong() & 0xffffffffffL) + "-" + index,
        orgId.substring(0, 15),
        user.substring(0, 15),
        Integer.toString(random.nextInt(5000)),
        Integer.toString(random.nextInt(900)),
        "/apex/Page" + random.nextInt(50),
        Long.toHexString(random.nextLong()),
        random.nextInt(10) == 0 ? "F" : "S",
        message,
        ISO_MILLIS.format(t),
        user);
    if (header.equals(HEADER)) {
      raggedness(cells, index);
    }
    return cells;
  }

  /** Tricky files: some rows get two cells too many, some three too few. */
  private void raggedness(List<String> cells, long index) {
    if (spec.tricky() && index % 17 == 5) {
      cells.add("extra one");
      cells.add("extra, two");
    } else if (spec.tricky() && index % 19 == 7) {
      cells.subList(Math.max(0, cells.size() - 3), cells.size()).clear();
    }
  }

  /**
   * Row {@code index} as sf2loki must ship it: header names to values, a short row padded with
   * {@code ""}, cells beyond the header joined with {@code ,} under {@code _extra}.
   */
  public Map<String, String> expectedRow(long index) {
    List<String> cells = cells(index);
    Map<String, String> row = new LinkedHashMap<>();
    for (int i = 0; i < header.size(); i++) {
      row.put(header.get(i), i < cells.size() ? cells.get(i) : "");
    }
    if (cells.size() > header.size()) {
      row.put("_extra", String.join(",", cells.subList(header.size(), cells.size())));
    }
    return row;
  }

  private static String pad12(long n) {
    String digits = Long.toString(n);
    return "000000000000".substring(digits.length()) + digits;
  }

  /**
   * The body's length in bytes: exact (by generating it once into a counter) up to {@value
   * #EXACT_LENGTH_ROWS} rows, an estimate from the first rows beyond that so that listing a huge
   * file stays cheap.
   */
  public long listedLength() {
    if (spec.rows() <= EXACT_LENGTH_ROWS) {
      return byteLength();
    }
    CountingStream counter = new CountingStream();
    try {
      Writer w = new OutputStreamWriter(counter, StandardCharsets.UTF_8);
      for (long i = 0; i < 1000; i++) {
        writeRow(w, cells(i), "\r\n");
      }
      w.flush();
    } catch (IOException e) {
      throw new IllegalStateException("counting never fails", e);
    }
    return counter.count * spec.rows() / 1000;
  }

  /** Writes the whole body to {@code out} as it goes; never holds more than one row. */
  public void write(OutputStream out) throws IOException {
    Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 64 * 1024);
    String newline = spec.tricky() ? "\r\n" : "\n";
    writeRow(w, header, newline);
    for (long i = 0; i < spec.rows(); i++) {
      writeRow(w, cells(i), newline);
    }
    w.flush();
  }

  /** The body's length in bytes (generates it once into a counter). */
  public long byteLength() {
    CountingStream counter = new CountingStream();
    try {
      write(counter);
    } catch (IOException e) {
      throw new IllegalStateException("counting never fails", e);
    }
    return counter.count;
  }

  private static void writeRow(Writer w, List<String> cells, String newline) throws IOException {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        w.write(',');
      }
      w.write('"');
      w.write(cells.get(i).replace("\"", "\"\""));
      w.write('"');
    }
    w.write(newline);
  }

  private static final class CountingStream extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
