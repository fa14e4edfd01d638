package io.sf2loki.source.eventlogfile;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Streams the rows of an ELF CSV body with a real CSV parser (RFC 4180 quoting, doubled quotes,
 * quoted newlines, LF or CRLF). The schema is the file's own header row. A row with more cells than
 * the header puts the extras, joined with {@code ,}, under {@code _extra}; a short row is padded
 * with {@code ""}. Values longer than {@value #MAX_FIELD_CHARS} characters are cut. Input is
 * decoded as UTF-8 with invalid sequences replaced. Only one row is held at a time.
 */
final class CsvRows implements Iterator<Map<String, String>>, Closeable {

  static final int MAX_FIELD_CHARS = 1024 * 1024;
  static final String EXTRA = "_extra";
  private static final CSVFormat FORMAT =
      CSVFormat.RFC4180.builder().setIgnoreEmptyLines(true).get();

  private final CSVParser parser;
  private final Iterator<CSVRecord> records;
  private final List<String> header;

  /** Opens {@code body}; reads the header row. */
  CsvRows(InputStream body) throws IOException {
    this.parser =
        FORMAT.parse(
            new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8), 64 * 1024));
    this.records = parser.iterator();
    List<String> names = new ArrayList<>();
    try {
      if (records.hasNext()) {
        for (String name : records.next()) {
          names.add(names.isEmpty() ? name.replace("\uFEFF", "") : name);
        }
      }
    } catch (UncheckedIOException e) {
      parser.close();
      throw e.getCause();
    }
    this.header = List.copyOf(names);
  }

  /** The column names of {@code body}'s header row (empty for an empty body). */
  static List<String> header(InputStream body) throws IOException {
    try (CsvRows csv = new CsvRows(body)) {
      return csv.header();
    }
  }

  /** The column names from the header row (empty for an empty body). */
  List<String> header() {
    return header;
  }

  /**
   * @throws UncheckedIOException when the body is not valid CSV (e.g. an unterminated quote)
   */
  @Override
  public boolean hasNext() {
    return !header.isEmpty() && records.hasNext();
  }

  @Override
  public Map<String, String> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    CSVRecord record = records.next();
    Map<String, String> row = new LinkedHashMap<>(header.size() * 2);
    int cells = record.size();
    for (int i = 0; i < header.size(); i++) {
      row.put(header.get(i), i < cells ? cap(record.get(i)) : "");
    }
    if (cells > header.size()) {
      StringBuilder extra = new StringBuilder();
      for (int i = header.size(); i < cells; i++) {
        extra.append(i > header.size() ? "," : "").append(record.get(i));
      }
      row.put(EXTRA, cap(extra.toString()));
    }
    return row;
  }

  private static String cap(String value) {
    return value.length() <= MAX_FIELD_CHARS ? value : value.substring(0, MAX_FIELD_CHARS);
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }
}
