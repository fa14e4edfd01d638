package io.sf2loki.testkit.salesforce;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Dispatches the fake's endpoints, applies scripted faults first and checks Bearer tokens. */
final class Router implements HttpHandler {

  private static final Pattern DATA =
      Pattern.compile("/services/data/(v\\d+\\.\\d)(/tooling)?/(.*)");
  private static final Pattern LOG_FILE =
      Pattern.compile("sobjects/EventLogFile/([A-Za-z0-9]{15,18})/LogFile");
  private static final Pattern NEXT_PAGE = Pattern.compile("query/([A-Za-z0-9]+-\\d+)");

  private final FakeSalesforce fake;
  private final Exchanges http;
  private final TokenEndpoint token;
  private final QueryEndpoint query;
  private final TestkitEndpoint testkit;

  Router(FakeSalesforce fake, Exchanges http) {
    this.fake = fake;
    this.http = http;
    this.token = new TokenEndpoint(fake, http);
    this.query = new QueryEndpoint(fake, http);
    this.testkit = new TestkitEndpoint(fake, http);
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try {
      route(ex);
      ex.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ex.close();
    }
    // a ConnectionCut propagates without closing the exchange: the server drops the connection
    // before the chunked body's terminating chunk, as a broken Salesforce download looks.
  }

  private void route(HttpExchange ex) throws IOException, InterruptedException {
    {
      String path = ex.getRequestURI().getRawPath();
      if (path.startsWith("/testkit/")) {
        testkit.handle(ex, path);
        return;
      }
      Fault.Route route = routeOf(path);
      fake.stats().request(route);
      Optional<Fault> fault = fake.faults().take(route);
      if (fault.isPresent() && applyFault(ex, fault.get())) {
        return;
      }
      if (route == Fault.Route.TOKEN) {
        token.handle(ex);
        return;
      }
      if (!authorised(ex)) {
        http.restError(ex, 401, "INVALID_SESSION_ID", "Session expired or invalid");
        return;
      }
      if (route != Fault.Route.USERINFO && !countCall(ex)) {
        return;
      }
      dispatchData(ex, path, fault.filter(Fault.CutMidStream.class::isInstance));
    }
  }

  /** Counts a REST call and stamps the usage header; false when the daily limit refused it. */
  private boolean countCall(HttpExchange ex) throws IOException {
    ApiUsage usage = fake.apiUsage();
    if (!usage.admit()) {
      http.restError(ex, 403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded.");
      return false;
    }
    usage.header().ifPresent(v -> ex.getResponseHeaders().set(ApiUsage.HEADER, v));
    return true;
  }

  private static Fault.Route routeOf(String path) {
    if (path.equals("/services/oauth2/token")) {
      return Fault.Route.TOKEN;
    }
    if (path.equals("/services/oauth2/userinfo")) {
      return Fault.Route.USERINFO;
    }
    if (path.endsWith("/LogFile")) {
      return Fault.Route.LOGFILE;
    }
    return path.contains("/query") ? Fault.Route.QUERY : Fault.Route.ANY;
  }

  /** True when the fault answered the request itself; a cut acts later, in the download. */
  private boolean applyFault(HttpExchange ex, Fault f) throws IOException, InterruptedException {
    if (f instanceof Fault.Status s) {
      http.json(ex, s.status(), s.body());
      return true;
    }
    if (f instanceof Fault.Malformed m) {
      switch (m.kind()) {
        case NON_JSON -> http.send(ex, 200, "text/html", "<html><body>Maintenance</body></html>");
        case JSON_ARRAY -> http.json(ex, 200, "[{\"unexpected\":true}]");
        default -> http.json(ex, 200, "{\"totalSize\":1,\"done\":true}"); // WRONG_SHAPE
      }
      return true;
    }
    if (f instanceof Fault.Latency l) {
      TimeUnit.NANOSECONDS.sleep(l.delay().toNanos());
    }
    return false;
  }

  private boolean authorised(HttpExchange ex) {
    String auth = ex.getRequestHeaders().getFirst("Authorization");
    return auth != null
        && auth.startsWith("Bearer ")
        && fake.isValidToken(auth.substring("Bearer ".length()));
  }

  private void dispatchData(HttpExchange ex, String path, Optional<Fault> cut) throws IOException {
    if (path.equals("/services/oauth2/userinfo")) {
      if (!fake.settings().scopes().contains("openid")) {
        ex.getResponseHeaders()
            .set("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"openid\"");
        http.oauthError(ex, 403, "insufficient_scope", "the openid scope is required");
        return;
      }
      http.json(
          ex,
          200,
          Json.write(
              Map.of(
                  "organization_id", fake.settings().orgId(),
                  "user_id", "005000000000001AAA",
                  "preferred_username",
                      fake.settings().username().orElse("integration@example.com"))));
      return;
    }
    Matcher m = DATA.matcher(path);
    if (!m.matches() || !"GET".equals(ex.getRequestMethod())) {
      http.restError(ex, 404, "NOT_FOUND", "The requested resource does not exist");
      return;
    }
    String version = m.group(1);
    boolean tooling = m.group(2) != null;
    String rest = m.group(3);
    Matcher file = LOG_FILE.matcher(rest);
    Matcher next = NEXT_PAGE.matcher(rest);
    if (rest.equals("query")) {
      query.handleQuery(ex, version, tooling);
    } else if (next.matches()) {
      query.handleNextPage(ex, version, tooling, next.group(1));
    } else if (!tooling && file.matches()) {
      logFile(ex, file.group(1), cut.isPresent());
    } else if (tooling && ApexLogs.BODY.matcher(rest).matches()) {
      Matcher body = ApexLogs.BODY.matcher(rest);
      body.matches();
      fake.apexLogs().serveBody(ex, http, body.group(1));
    } else if (rest.equals("limits")) {
      if (fake.apiUsage().limitsFail()) {
        http.restError(ex, 500, "UNKNOWN_EXCEPTION", "An unexpected error occurred");
      } else {
        http.json(ex, 200, fake.apiUsage().limitsJson());
      }
    } else if (rest.equals("sobjects") || rest.equals("sobjects/")) {
      http.json(
          ex,
          200,
          Json.write(
              Map.of(
                  "sobjects",
                  fake.sobjects().stream()
                      .map(n -> Map.of("name", n, "queryable", true))
                      .toList())));
    } else if (rest.startsWith("sobjects/") && rest.endsWith("EventLog/describe")) {
      describeEventLogObject(ex, rest.substring(9, rest.length() - 9));
    } else if (rest.equals("sobjects/EventLogFile/describe")) {
      if (fake.eventLogFileAccess()) {
        http.json(ex, 200, "{\"name\":\"EventLogFile\",\"queryable\":true}");
      } else {
        http.restError(
            ex, 403, "INSUFFICIENT_ACCESS", "insufficient access rights on object EventLogFile");
      }
    } else {
      http.restError(ex, 404, "NOT_FOUND", "The requested resource does not exist");
    }
  }

  private void describeEventLogObject(HttpExchange ex, String object) throws IOException {
    EventLogObjects elo = fake.eventLogObjects();
    if (!elo.isDefined(object)) {
      http.restError(ex, 404, "NOT_FOUND", "The requested resource does not exist");
    } else if (!elo.hasAccess()) {
      http.restError(
          ex, 403, "INSUFFICIENT_ACCESS", "insufficient access rights on object " + object);
    } else {
      http.json(ex, 200, Json.write(elo.describe(object)));
    }
  }

  private void logFile(HttpExchange ex, String id, boolean cut) throws IOException {
    Optional<LogFileSpec> spec =
        fake.logFile(id).filter(f -> !f.createdDate().isAfter(fake.serverNow()));
    if (spec.isEmpty()) {
      http.restError(ex, 404, "NOT_FOUND", "The requested resource does not exist");
      return;
    }
    fake.stats().downloadStarted(id);
    LogFileCsv csv = fake.csv(spec.get());
    ex.getResponseHeaders().set("Content-Type", "text/csv");
    ex.sendResponseHeaders(200, 0); // chunked: the body is generated while it is sent
    long limit = cut ? Math.max(1, fake.byteLength(spec.get()) / 2) : Long.MAX_VALUE;
    CountingCut out = new CountingCut(ex.getResponseBody(), limit);
    csv.write(out);
    out.close();
    fake.stats().downloadCompleted(id, out.count);
  }

  /** Raised to drop the connection without finishing the chunked body. */
  static final class ConnectionCut extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ConnectionCut() {
      super("scripted cut mid-stream", null, false, false);
    }
  }

  private static final class CountingCut extends FilterOutputStream {
    private final long limit;
    long count;

    CountingCut(OutputStream out, long limit) {
      super(out);
      this.limit = limit;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (count + len > limit) {
        int head = (int) (limit - count);
        out.write(b, off, head);
        out.flush();
        throw new ConnectionCut();
      }
      out.write(b, off, len);
      count += len;
    }
  }
}
