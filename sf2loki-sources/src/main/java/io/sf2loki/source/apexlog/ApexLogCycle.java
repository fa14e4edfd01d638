package io.sf2loki.source.apexlog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.shape.EventTimes;
import io.sf2loki.shape.Payloads;
import io.sf2loki.shape.Shaper;
import io.sf2loki.shape.TypeShaping;
import io.sf2loki.source.eventlogobjects.ObjectCursor;
import io.sf2loki.spi.SourceContext;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listing cycle: pages of up to 200 logs from the cursor, each log shaped and emitted with the
 * cursor after it. Every log carries its own token, so a crash replays at most the logs after the
 * last delivered one.
 */
final class ApexLogCycle {

  static final String KEY = "apexlog";
  static final String BODY = "Body";
  private static final Logger LOG = LoggerFactory.getLogger(ApexLogCycle.class);
  private static final int PAGE = 200;
  private static final String SELECT =
      "SELECT Id, LogUserId, LogLength, Operation, Request, Status, StartTime, Application,"
          + " DurationMilliseconds, Location FROM ApexLog WHERE ";
  private static final TypeShaping TYPE = TypeShaping.of("apexlog");

  private final SalesforceRestClient rest;
  private final ApexLogConfig config;
  private final ApexLogBodies bodies;
  private final Shaper shaper;
  private final ApexLogMetrics metrics;
  private final Runnable stall;
  private int fullPagesWithoutNews;

  ApexLogCycle(
      SalesforceRestClient rest,
      ApexLogConfig config,
      ApexLogBodies bodies,
      Shaper shaper,
      ApexLogMetrics metrics,
      Runnable stall) {
    this.rest = rest;
    this.config = config;
    this.bodies = bodies;
    this.shaper = shaper;
    this.metrics = metrics;
    this.stall = stall;
  }

  /** Runs one cycle from {@code cursor}, advancing it in place. */
  void run(ObjectCursor cursor, SourceContext ctx)
      throws SalesforceApiException, AuthException, InterruptedException {
    while (!ctx.stopRequested()) {
      List<ObjectNode> page = rest.toolingQuery(listing(cursor)).records();
      int fresh = 0;
      for (ObjectNode log : page) {
        String id = log.path("Id").asText("");
        if (id.isEmpty() || cursor.seen(id)) {
          continue;
        }
        fresh++;
        if (!process(id, log, cursor, ctx)) {
          return; // a body must be retried next cycle: do not advance past it
        }
      }
      if (page.size() < PAGE) {
        fullPagesWithoutNews = 0;
        return;
      }
      if (fresh == 0 && ++fullPagesWithoutNews >= 2) {
        stall.run();
        LOG.error(
            "apexlog: a full page of already-seen logs twice in a row at {}", cursor.lastTs());
        return;
      } else if (fresh == 0) {
        LOG.warn("apexlog: a full page of already-seen logs at {}", cursor.lastTs());
        return;
      }
      fullPagesWithoutNews = 0;
    }
  }

  private boolean process(String id, ObjectNode log, ObjectCursor cursor, SourceContext ctx)
      throws SalesforceApiException, AuthException, InterruptedException {
    Map<String, Object> metadata = Payloads.fromJson(log);
    Optional<Instant> start = EventTimes.parse(metadata.get("StartTime"));
    Optional<Instant> fallback = Optional.of(cursor.watermark());
    String rawStart = log.path("StartTime").asText();
    if (!shaper.sampledIn(
        new TypeShaping("apexlog", Optional.empty(), List.of(), config.sampleRate()), id)) {
      advance(cursor, id, start, rawStart, ctx, true);
      return true;
    }
    Optional<String> skip = Optional.empty();
    Map<String, Object> payload = new LinkedHashMap<>(metadata);
    if (!config.shaping().transforms().dropsField("apexlog", BODY)) {
      long length = log.path("LogLength").asLong(0);
      ApexLogBodies.Body body = bodies.fetch(id, length, start);
      if (body instanceof ApexLogBodies.Retry retry) {
        LOG.warn("apexlog: body of {} not delivered ({}); retrying next cycle", id, retry.why());
        return false;
      }
      if (body instanceof ApexLogBodies.Text text) {
        payload.put(BODY, text.text());
      } else if (body instanceof ApexLogBodies.Skip s) {
        skip = Optional.of(s.reason());
      }
    }
    if (shaper.transform("apexlog", payload).isPresent()) {
      advance(cursor, id, start, rawStart, ctx, true);
      return true;
    }
    advance(cursor, id, start, rawStart, ctx, false);
    ctx.emit(entry(payload, skip, fallback, cursor));
    metrics.ingested();
    return true;
  }

  private LogEntry entry(
      Map<String, Object> payload,
      Optional<String> skip,
      Optional<Instant> fallback,
      ObjectCursor cursor) {
    Object body = payload.remove(BODY);
    String line = body == null ? CanonicalJson.write(payload) : CanonicalJson.stringForm(body);
    Map<String, String> sm = shaper.metadata(TYPE, payload);
    payload.forEach(
        (k, v) -> {
          if (v != null && !CanonicalJson.stringForm(v).isEmpty()) {
            sm.putIfAbsent(k, CanonicalJson.stringForm(v));
          }
        });
    skip.ifPresent(
        reason -> {
          sm.put("body_skipped", "true");
          sm.put("body_skip_reason", reason);
        });
    Instant time = shaper.eventTime(payload, List.of("StartTime"), fallback);
    return LogEntry.of(
        EventTimes.epochNanos(time),
        shaper.labels(TYPE, payload),
        line,
        sm,
        Optional.of(new CheckpointToken(KEY, cursor.encode())));
  }

  private static void advance(
      ObjectCursor cursor,
      String id,
      Optional<Instant> start,
      String raw,
      SourceContext ctx,
      boolean carry)
      throws InterruptedException {
    cursor.advance(id, start, start.isPresent() ? raw : cursor.lastTs());
    if (carry) {
      ctx.emit(LogEntry.checkpointOnly(new CheckpointToken(KEY, cursor.encode())));
    }
  }

  private String listing(ObjectCursor cursor) {
    String lit = literal(cursor.watermark());
    String where =
        cursor
            .lastId()
            .map(
                id ->
                    "(StartTime > " + lit + " OR (StartTime = " + lit + " AND Id > '" + id + "'))")
            .orElse("StartTime >= " + lit);
    if (!config.users().isEmpty()) {
      where +=
          " AND LogUser.Username IN ("
              + config.users().stream().map(u -> "'" + u + "'").collect(Collectors.joining(","))
              + ")";
    }
    return SELECT + where + " ORDER BY StartTime ASC, Id ASC LIMIT " + PAGE;
  }

  private static String literal(Instant t) {
    return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
        .withZone(java.time.ZoneOffset.UTC)
        .format(t);
  }
}
