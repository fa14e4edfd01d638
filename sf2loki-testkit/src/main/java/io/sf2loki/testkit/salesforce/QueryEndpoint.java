package io.sf2loki.testkit.salesforce;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * REST and Tooling query: one regex per SOQL shape sf2loki issues (anything else is answered with
 * {@code MALFORMED_QUERY}, as Salesforce does for what it cannot parse), {@code done} / {@code
 * nextRecordsUrl} paging and {@code attributes} on every record. EventLogFile listings come in two
 * shapes: one type per query ({@link #ELF_LISTING}) and every type at once ({@link
 * ElfListingQuery}), whose records also carry {@code LogFileFieldNames} and {@code
 * LogFileFieldTypes}.
 */
final class QueryEndpoint {

  static final Pattern ELF_LISTING =
      Pattern.compile(
          "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence FROM EventLogFile"
              + " WHERE EventType='([A-Za-z0-9_]+)' AND Interval='(Hourly|Daily)' AND CreatedDate"
              + " >= (\\S+)(?: AND CreatedDate < (\\S+))? ORDER BY CreatedDate, Id LIMIT (\\d+)");
  static final Pattern ELF_DISCOVERY =
      Pattern.compile(
          "SELECT EventType FROM EventLogFile WHERE Interval='(Hourly|Daily)' GROUP BY EventType");
  private static final Pattern LITERAL =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");

  private final FakeSalesforce fake;
  private final Exchanges http;
  private final Map<String, List<Map<String, Object>>> cursors = new ConcurrentHashMap<>();
  private final AtomicLong locators = new AtomicLong();
  private final ObjectQueries objectQueries;
  private final EloQueries eloQueries;

  QueryEndpoint(FakeSalesforce fake, Exchanges http) {
    this.fake = fake;
    this.http = http;
    this.objectQueries = new ObjectQueries(fake.eventObjects());
    this.eloQueries = new EloQueries(fake.eventLogObjects());
  }

  private void answer(HttpExchange ex, String version, boolean tooling, QueryAnswer a)
      throws IOException {
    if (a.isError()) {
      http.restError(ex, a.status(), a.errorCode(), a.message());
    } else if (a.count() >= 0) {
      http.json(
          ex, 200, Json.write(Map.of("totalSize", a.count(), "done", true, "records", List.of())));
    } else {
      page(ex, version, tooling, newLocator(), a.records(), 0);
    }
  }

  /** First page: {@code .../query?q=...} or {@code .../tooling/query?q=...}. */
  void handleQuery(HttpExchange ex, String version, boolean tooling) throws IOException {
    String soql = Exchanges.decodeForm(ex.getRequestURI().getRawQuery()).getOrDefault("q", "");
    fake.recordQuery(soql);
    if (ex.getRequestURI().getRawPath().length() + soql.length() > 16_384) {
      http.restError(ex, 414, "URI_TOO_LONG", "The request URI is too long");
      return;
    }
    Optional<QueryAnswer> added = tooling ? fake.apexLogs().answer(soql) : eloQueries.answer(soql);
    if (!tooling && added.isEmpty()) {
      added = objectQueries.answer(soql);
    }
    if (added.isPresent()) {
      answer(ex, version, tooling, added.get());
      return;
    }
    Optional<List<Map<String, Object>>> records = tooling ? Optional.empty() : evaluate(soql);
    if (records.isEmpty()) {
      http.restError(ex, 400, "MALFORMED_QUERY", "unexpected token in query: " + soql);
      return;
    }
    page(ex, version, tooling, newLocator(), records.get(), 0);
  }

  /** A later page: {@code .../query/{locator}-{offset}}. */
  void handleNextPage(HttpExchange ex, String version, boolean tooling, String locatorAndOffset)
      throws IOException {
    int dash = locatorAndOffset.lastIndexOf('-');
    List<Map<String, Object>> all =
        dash < 0 ? null : cursors.get(locatorAndOffset.substring(0, dash));
    if (all == null) {
      http.restError(ex, 400, "INVALID_QUERY_LOCATOR", "invalid query locator");
      return;
    }
    int offset = Integer.parseInt(locatorAndOffset.substring(dash + 1));
    page(ex, version, tooling, locatorAndOffset.substring(0, dash), all, offset);
  }

  private void page(
      HttpExchange ex,
      String version,
      boolean tooling,
      String locator,
      List<Map<String, Object>> all,
      int offset)
      throws IOException {
    int end = Math.min(all.size(), offset + fake.settings().queryBatchSize());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("totalSize", all.size());
    body.put("done", end >= all.size());
    if (end < all.size()) {
      cursors.put(locator, all);
      String base = "/services/data/" + version + (tooling ? "/tooling" : "") + "/query/";
      body.put("nextRecordsUrl", base + locator + "-" + end);
    } else {
      cursors.remove(locator);
    }
    body.put("records", all.subList(offset, end));
    http.json(ex, 200, Json.write(body));
  }

  private String newLocator() {
    return String.format("01gD0000000%04dA", locators.incrementAndGet() % 10000);
  }

  private Optional<List<Map<String, Object>>> evaluate(String soql) {
    Optional<ElfListingQuery.Parsed> all = ElfListingQuery.parse(soql);
    if (all.isPresent()) {
      List<Map<String, Object>> out = new ArrayList<>();
      for (LogFileSpec f : fake.visibleFiles()) {
        if (out.size() < all.get().limit() && all.get().matches(f)) {
          Map<String, Object> r = record(f);
          LogFileSchema schema = fake.schemaOf(f);
          r.put("LogFileFieldNames", String.join(",", schema.names()));
          r.put("LogFileFieldTypes", String.join(",", schema.types()));
          out.add(r);
        }
      }
      return Optional.of(out);
    }
    Matcher m = ELF_LISTING.matcher(soql);
    if (m.matches()) {
      Optional<Instant> since = literal(m.group(3));
      Optional<Instant> until = m.group(4) == null ? Optional.of(Instant.MAX) : literal(m.group(4));
      if (since.isEmpty() || until.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(
          listing(m.group(1), m.group(2), since.get(), until.get(), Integer.parseInt(m.group(5))));
    }
    m = ELF_DISCOVERY.matcher(soql);
    if (m.matches()) {
      return Optional.of(discovery(m.group(1)));
    }
    return Optional.empty();
  }

  private static Optional<Instant> literal(String value) {
    if (!LITERAL.matcher(value).matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(value));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private List<Map<String, Object>> listing(
      String type, String interval, Instant since, Instant until, int limit) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (LogFileSpec f : fake.visibleFiles()) {
      if (out.size() >= limit) {
        break;
      }
      if (f.eventType().equals(type)
          && f.interval().equals(interval)
          && !f.createdDate().isBefore(since)
          && f.createdDate().isBefore(until)) {
        out.add(record(f));
      }
    }
    return out;
  }

  private Map<String, Object> record(LogFileSpec f) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put(
        "attributes",
        Map.of(
            "type",
            "EventLogFile",
            "url",
            "/services/data/v"
                + fake.settings().apiVersion()
                + "/sobjects/EventLogFile/"
                + f.id()));
    r.put("Id", f.id());
    r.put("EventType", f.eventType());
    r.put("Interval", f.interval());
    r.put("LogDate", Json.sfDate(f.logDate()));
    r.put("CreatedDate", Json.sfDate(f.createdDate()));
    r.put("LogFileLength", (double) fake.byteLength(f)); // Salesforce sends it as 1234.0
    r.put("Sequence", f.sequence());
    return r;
  }

  private List<Map<String, Object>> discovery(String interval) {
    TreeSet<String> types = new TreeSet<>();
    for (LogFileSpec f : fake.visibleFiles()) {
      if (f.interval().equals(interval)) {
        types.add(f.eventType());
      }
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (String t : types) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("attributes", Map.of("type", "AggregateResult"));
      r.put("EventType", t);
      out.add(r);
    }
    return out;
  }
}
