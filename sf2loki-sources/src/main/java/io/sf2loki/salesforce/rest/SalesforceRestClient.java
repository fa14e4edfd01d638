package io.sf2loki.salesforce.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.auth.TokenProvider;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;

/**
 * Salesforce REST and Tooling calls for one org. Thread-safe; share one per org.
 *
 * <p>Every call takes a token from the {@link TokenProvider}, goes to the token's instance URL, and
 * after a 401 invalidates exactly that token and retries once. Responses are classified into the
 * {@link SalesforceApiException} subtypes; nothing a server sends escapes as an unchecked
 * exception. Each response's {@code Date} header is reported to the date observer (clock skew), and
 * each answer (with its {@code Sforce-Limit-Info} header) and throttle to the {@link CallObserver}
 * (the org's API budget).
 */
public final class SalesforceRestClient {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ERROR_BODY = 4096;
  private static final int MAX_JSON_BODY = 64 * 1024 * 1024;
  private static final String LIMIT_INFO = "Sforce-Limit-Info";

  private final CloseableHttpClient http;
  private final TokenProvider tokens;
  private final String apiVersion;
  private final Consumer<Instant> dateObserver;
  private final MeterRegistry metrics;
  private final CallObserver calls;

  /**
   * @param apiVersion e.g. {@code 60.0}
   * @param dateObserver receives the server's {@code Date} of every response that has one
   */
  public SalesforceRestClient(
      CloseableHttpClient http,
      TokenProvider tokens,
      String apiVersion,
      Consumer<Instant> dateObserver) {
    this(http, tokens, apiVersion, dateObserver, new SimpleMeterRegistry());
  }

  /**
   * @param apiVersion e.g. {@code 60.0}
   * @param dateObserver receives the server's {@code Date} of every response that has one
   * @param metrics counts every call in {@code sf2loki_salesforce_api_calls{outcome}}
   */
  public SalesforceRestClient(
      CloseableHttpClient http,
      TokenProvider tokens,
      String apiVersion,
      Consumer<Instant> dateObserver,
      MeterRegistry metrics) {
    this(http, tokens, apiVersion, dateObserver, metrics, CallObserver.NONE);
  }

  /**
   * @param apiVersion e.g. {@code 60.0}
   * @param dateObserver receives the server's {@code Date} of every response that has one
   * @param metrics counts every call in {@code sf2loki_salesforce_api_calls{outcome}}
   * @param calls learns of every answer and throttle (the org's API budget)
   */
  public SalesforceRestClient(
      CloseableHttpClient http,
      TokenProvider tokens,
      String apiVersion,
      Consumer<Instant> dateObserver,
      MeterRegistry metrics,
      CallObserver calls) {
    this.calls = Objects.requireNonNull(calls, "calls");
    this.http = Objects.requireNonNull(http, "http");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.apiVersion = Objects.requireNonNull(apiVersion, "apiVersion");
    this.dateObserver = Objects.requireNonNull(dateObserver, "dateObserver");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  private void countCall(String outcome) {
    metrics.counter("sf2loki_salesforce_api_calls", "outcome", outcome).increment();
  }

  /** Reads a streamed 2xx body; an {@link IOException} means the transport broke. */
  @FunctionalInterface
  public interface BodyReader<T> {
    T read(InputStream body) throws IOException;
  }

  /** {@code /services/data/v{ver}/} + {@code suffix}. */
  public String dataPath(String suffix) {
    return "/services/data/v" + apiVersion + "/" + suffix;
  }

  /** A REST SOQL query, every page followed. */
  public QueryResult query(String soql)
      throws SalesforceApiException, AuthException, InterruptedException {
    return query(soql, "query");
  }

  /** A Tooling API SOQL query, every page followed. */
  public QueryResult toolingQuery(String soql)
      throws SalesforceApiException, AuthException, InterruptedException {
    return query(soql, "tooling/query");
  }

  private QueryResult query(String soql, String endpoint)
      throws SalesforceApiException, AuthException, InterruptedException {
    // The instance base is captured once: every page of this query goes to the same host.
    URI base = tokens.token().instanceUrl();
    String path = dataPath(endpoint) + "?q=" + URLEncoder.encode(soql, StandardCharsets.UTF_8);
    List<ObjectNode> records = new ArrayList<>();
    int pages = 0;
    long totalSize = 0;
    while (path != null) {
      JsonNode page = getJson(base, path, "query");
      if (pages++ == 0) {
        totalSize = page.path("totalSize").asLong(0);
      }
      JsonNode recs = page.get("records");
      if (!page.isObject() || recs == null || !recs.isArray()) {
        throw new MalformedResponseException("query response has no records array", null);
      }
      for (JsonNode r : recs) {
        if (!r.isObject()) {
          throw new MalformedResponseException("query record is not an object", null);
        }
        records.add((ObjectNode) r);
      }
      path = nextPage(page, path);
    }
    return new QueryResult(records, pages, totalSize);
  }

  private static String nextPage(JsonNode page, String previous) throws MalformedResponseException {
    JsonNode done = page.get("done");
    JsonNode next = page.get("nextRecordsUrl");
    if (done == null || !done.isBoolean() || done.booleanValue() || next == null) {
      return null;
    }
    String url = next.asText();
    if (!url.startsWith("/services/data/") || url.equals(previous)) {
      throw new MalformedResponseException("query response has an unusable nextRecordsUrl", null);
    }
    return url;
  }

  /** GET of a JSON resource under the instance, e.g. {@code dataPath("limits")}. */
  public JsonNode getJson(String path)
      throws SalesforceApiException, AuthException, InterruptedException {
    return getJson(tokens.token().instanceUrl(), path, "GET " + pathOnly(path));
  }

  private JsonNode getJson(URI base, String path, String what)
      throws SalesforceApiException, AuthException, InterruptedException {
    byte[] body = call(t -> URI.create(base + path), what, SalesforceRestClient::readJsonBody);
    try {
      JsonNode node = JSON.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw new MalformedResponseException(what + " returned an empty body", null);
      }
      if (!node.isObject()) {
        throw new MalformedResponseException(what + " returned JSON that is not an object", null);
      }
      return node;
    } catch (IOException e) {
      throw new MalformedResponseException(what + " returned a body that is not JSON", e);
    }
  }

  /**
   * GET of {@code path} under the instance with the 2xx body handed to {@code reader} as a stream;
   * the body is never buffered here.
   */
  public <T> T download(String path, BodyReader<T> reader)
      throws SalesforceApiException, AuthException, InterruptedException {
    return call(
        t -> URI.create(t.instanceUrl() + path), "download " + pathOnly(path), reader::read);
  }

  private <T> T call(Function<AccessToken, URI> uri, String what, BodyReader<T> reader)
      throws SalesforceApiException, AuthException, InterruptedException {
    AccessToken token = tokens.token();
    Outcome<T> outcome = attempt(uri.apply(token), token, what, reader);
    if (outcome.status() == 401) {
      tokens.invalidate(token); // compare-and-clear: only the token that failed
      token = tokens.token();
      outcome = attempt(uri.apply(token), token, what, reader);
    }
    if (outcome.status() >= 200 && outcome.status() < 300) {
      return outcome.value();
    }
    if (outcome.status() == 403 && isRequestLimitExceeded(outcome.errorBody())) {
      calls.throttled();
      throw new ThrottledException(what + " throttled: 403 REQUEST_LIMIT_EXCEEDED");
    }
    throw new ApiErrorException(what, outcome.status(), outcome.errorBody());
  }

  private <T> Outcome<T> attempt(URI uri, AccessToken token, String what, BodyReader<T> reader)
      throws TransportException, InterruptedException {
    HttpGet get = new HttpGet(uri);
    get.setHeader("Authorization", token.bearerHeader());
    get.setHeader("Accept", "application/json");
    try {
      Outcome<T> outcome = http.execute(get, response -> handle(response, reader));
      countCall(outcome.status() / 100 + "xx");
      calls.answered(outcome.status(), outcome.limitInfo());
      return outcome;
    } catch (IOException e) {
      countCall("transport");
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException(what + " interrupted");
      }
      throw new TransportException(what + " failed: " + e.getClass().getSimpleName(), e);
    }
  }

  private <T> Outcome<T> handle(ClassicHttpResponse response, BodyReader<T> reader)
      throws IOException {
    observeDate(response.getFirstHeader("Date"));
    Optional<String> limitInfo =
        Optional.ofNullable(response.getFirstHeader(LIMIT_INFO)).map(Header::getValue);
    int status = response.getCode();
    HttpEntity entity = response.getEntity();
    if (status >= 200 && status < 300) {
      try (InputStream in = entity == null ? InputStream.nullInputStream() : entity.getContent()) {
        return new Outcome<>(status, reader.read(in), "", limitInfo);
      }
    }
    String body = "";
    if (entity != null) {
      try (InputStream in = entity.getContent()) {
        body = new String(in.readNBytes(MAX_ERROR_BODY), StandardCharsets.UTF_8);
      }
    }
    return new Outcome<>(status, null, body, limitInfo);
  }

  private void observeDate(Header date) {
    if (date == null) {
      return;
    }
    try {
      dateObserver.accept(
          ZonedDateTime.parse(date.getValue(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
    } catch (DateTimeParseException e) {
      // an unparsable Date header just gives no skew sample
    }
  }

  private static byte[] readJsonBody(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_JSON_BODY + 1);
    if (body.length > MAX_JSON_BODY) {
      throw new IOException("JSON response larger than " + MAX_JSON_BODY + " bytes");
    }
    return body;
  }

  /** Parses the error array's {@code errorCode}s, falling back to a substring match. */
  static boolean isRequestLimitExceeded(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      if (node != null && node.isArray()) {
        for (JsonNode e : node) {
          if ("REQUEST_LIMIT_EXCEEDED".equals(e.path("errorCode").asText())) {
            return true;
          }
        }
      }
    } catch (IOException e) {
      // not JSON: fall through to the substring match
    }
    return body.contains("REQUEST_LIMIT_EXCEEDED");
  }

  private static String pathOnly(String path) {
    int q = path.indexOf('?');
    return q < 0 ? path : path.substring(0, q);
  }

  private record Outcome<T>(int status, T value, String errorBody, Optional<String> limitInfo) {}
}
