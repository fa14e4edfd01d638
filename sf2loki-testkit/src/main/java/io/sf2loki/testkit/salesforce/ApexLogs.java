package io.sf2loki.testkit.salesforce;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debug logs served by the Tooling API: the listing shape of the SOQL catalogue and {@code GET
 * /tooling/sobjects/ApexLog/{id}/Body}, with scripted body failures per log and deletion (which
 * Salesforce does to old logs: the body then answers 404). Thread-safe.
 */
public final class ApexLogs {

  /**
   * One debug log.
   *
   * @param id the 18-character log id; ids sort in creation order
   * @param startTime {@code StartTime}
   * @param username the {@code LogUser.Username}
   * @param status {@code Status}
   * @param body the debug log text
   */
  public record Log(String id, Instant startTime, String username, String status, String body) {}

  private static final String SELECT =
      "SELECT Id, LogUserId, LogLength, Operation, Request, Status, StartTime, Application,"
          + " DurationMilliseconds, Location FROM ApexLog WHERE ";
  private static final String LIT = "(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z)";
  private static final Pattern LISTING =
      Pattern.compile(
          Pattern.quote(SELECT)
              + "(?:StartTime >= "
              + LIT
              + "|\\(StartTime > "
              + LIT
              + " OR \\(StartTime = \\2 AND Id > '([A-Za-z0-9]{18})'\\)\\))"
              + "(?: AND LogUser\\.Username IN \\(('[^']+'(?:,'[^']+')*)\\))?"
              + " ORDER BY StartTime ASC, Id ASC LIMIT (\\d+)");
  static final Pattern BODY = Pattern.compile("sobjects/ApexLog/([A-Za-z0-9]{15,18})/Body");

  private final FakeSalesforce fake;
  private final Map<String, Log> logs = new ConcurrentHashMap<>();
  private final Map<String, Integer> failStatus = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> failTimes = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> bodyRequests = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  ApexLogs(FakeSalesforce fake) {
    this.fake = fake;
  }

  /** Adds a log; returns it. */
  public Log add(Instant startTime, String username, String status, String body) {
    String id = String.format("07L%012dAAA", ids.incrementAndGet());
    Log log = new Log(id, startTime, username, status, body);
    logs.put(id, log);
    return log;
  }

  /** The next {@code times} body downloads of {@code id} answer {@code status}. */
  public void failBody(String id, int status, int times) {
    failStatus.put(id, status);
    failTimes.put(id, new AtomicInteger(times));
  }

  /** Deletes a log (its body then answers 404, as for a purged log); the listing keeps it. */
  public void purgeBody(String id) {
    failBody(id, 404, Integer.MAX_VALUE);
  }

  /** Body requests received for {@code id}. */
  public int bodyRequests(String id) {
    AtomicInteger n = bodyRequests.get(id);
    return n == null ? 0 : n.get();
  }

  Optional<QueryAnswer> answer(String soql) {
    Matcher m = LISTING.matcher(soql);
    if (!m.matches()) {
      return soql.contains(" FROM ApexLog ")
          ? Optional.of(QueryAnswer.error(400, "MALFORMED_QUERY", "unexpected token: " + soql))
          : Optional.empty();
    }
    Predicate<Log> cursor;
    if (m.group(1) != null) {
      Instant t = Instant.parse(m.group(1));
      cursor = l -> !l.startTime().isBefore(t);
    } else {
      Instant t = Instant.parse(m.group(2));
      String id = m.group(3);
      cursor = l -> l.startTime().isAfter(t) || l.startTime().equals(t) && l.id().compareTo(id) > 0;
    }
    Set<String> users = new TreeSet<>();
    if (m.group(4) != null) {
      for (String u : m.group(4).split(",")) {
        users.add(u.substring(1, u.length() - 1));
      }
    }
    List<Log> matching =
        logs.values().stream()
            .filter(cursor)
            .filter(l -> users.isEmpty() || users.contains(l.username()))
            .sorted(Comparator.comparing(Log::startTime).thenComparing(Log::id))
            .limit(Integer.parseInt(m.group(5)))
            .toList();
    List<Map<String, Object>> out = new ArrayList<>();
    matching.forEach(l -> out.add(record(l)));
    return Optional.of(QueryAnswer.of(out));
  }

  private Map<String, Object> record(Log l) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put(
        "attributes",
        Map.of(
            "type",
            "ApexLog",
            "url",
            "/services/data/v"
                + fake.settings().apiVersion()
                + "/tooling/sobjects/ApexLog/"
                + l.id()));
    r.put("Id", l.id());
    r.put("LogUserId", "005000000000001AAA");
    r.put("LogLength", l.body().getBytes(StandardCharsets.UTF_8).length);
    r.put("Operation", "/apex/Checkout");
    r.put("Request", "Application");
    r.put("Status", l.status());
    r.put("StartTime", Json.sfDate(l.startTime()));
    r.put("Application", "Browser");
    r.put("DurationMilliseconds", 42);
    r.put("Location", "Monitoring");
    return r;
  }

  void serveBody(HttpExchange ex, Exchanges http, String id) throws IOException {
    bodyRequests.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
    Log log = logs.get(id);
    AtomicInteger remaining = failTimes.get(id);
    if (log != null && remaining != null && remaining.getAndDecrement() > 0) {
      int status = failStatus.get(id);
      http.restError(ex, status, status == 404 ? "NOT_FOUND" : "UNKNOWN_EXCEPTION", "body failed");
      return;
    }
    if (log == null) {
      http.restError(ex, 404, "NOT_FOUND", "The requested resource does not exist");
      return;
    }
    http.send(ex, 200, "text/plain;charset=UTF-8", log.body());
  }
}
