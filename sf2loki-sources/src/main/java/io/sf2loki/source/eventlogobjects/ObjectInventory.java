package io.sf2loki.source.eventlogobjects;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.source.elo.EloCheckpoint;
import io.sf2loki.source.elo.EloReader;
import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * What a bounded run of the configured objects would read (the backfill dry run): per object, the
 * rows from the cursor a run would resume from up to the window's {@code until}, counted exactly by
 * one {@code SELECT COUNT()} each (the settle bound left out: a finished run has read past it), the
 * query pages the run spends on them, and how many of those rows are older than an age cutoff (one
 * more count, only when the object's cursor is below it). Big objects allow no aggregate function,
 * so Salesforce refuses their count: their rows stay unknown until a run drains them. An Event Log
 * Object is counted within its query rules: from its own checkpoint token, one {@code SELECT
 * COUNT() ... WHERE Timestamp >= a AND Timestamp < b} per window of at most 15 days; should
 * Salesforce refuse the count, its rows are unknown, with the reason.
 */
public final class ObjectInventory implements AutoCloseable {

  /**
   * One object's count.
   *
   * @param object the object
   * @param bigObject drained newest-first by a run
   * @param rows the rows a run would read, when Salesforce counted them
   * @param oldRows those of them older than the cutoff given to {@link #count}, when counted
   * @param settled whether the window's {@code until} is already behind the object's settle bound,
   *     so a run reads it in one pass; otherwise it polls every {@code poll_interval} until it is
   * @param problem why the rows are unknown (a refused or failed count)
   * @param pageSize the rows of one query page: {@value ObjectQueries#PAGE}, or {@value
   *     EloReader#PAGE} for an Event Log Object
   * @param fixedCalls the calls a run spends whatever the rows: the short page that ends its read
   *     (1), or for an Event Log Object one per 15-day window plus its {@code describe}
   */
  public record ObjectCount(
      String object,
      boolean bigObject,
      OptionalLong rows,
      OptionalLong oldRows,
      boolean settled,
      Optional<String> problem,
      int pageSize,
      long fixedCalls) {

    /**
     * The calls a run's pass spends on the rows: one per full page of {@link #pageSize} plus the
     * {@link #fixedCalls}. Exact for the ascending path; a drain, or an Event Log Object page
     * ending in a tie (its millisecond is read again), spends more.
     */
    public OptionalLong queryCalls() {
      return rows.isPresent()
          ? OptionalLong.of(rows.getAsLong() / pageSize + fixedCalls)
          : OptionalLong.empty();
    }
  }

  /**
   * The whole inventory.
   *
   * @param objects one count per configured object, in config order
   * @param limitsCalls {@code /limits} reads a run makes at its start (0 when {@code
   *     salesforce.limits.enabled} is off, else 1, and one more per poll interval it lasts)
   * @param countCalls the {@code COUNT()} queries this inventory made
   */
  public record Inventory(List<ObjectCount> objects, long limitsCalls, long countCalls) {
    public Inventory {
      objects = List.copyOf(objects);
    }
  }

  private final EventLogObjectsConfig config;
  private final ObjectPoller poller;
  private final SalesforceRestClient rest;
  private final Supplier<Instant> salesforceNow;
  private final Closeable resources;
  private final boolean pollsLimits;

  ObjectInventory(
      EventLogObjectsConfig config,
      ObjectPoller poller,
      SalesforceRestClient rest,
      Supplier<Instant> salesforceNow,
      Closeable resources,
      boolean pollsLimits) {
    this.config = config;
    this.poller = poller;
    this.rest = rest;
    this.salesforceNow = salesforceNow;
    this.resources = resources;
    this.pollsLimits = pollsLimits;
  }

  /**
   * Counts every object from where a run would resume.
   *
   * @param committed the checkpoint document a run would resume from
   * @param oldBefore the age cutoff counted in {@link ObjectCount#oldRows()}
   * @throws AuthException when no token can be minted
   */
  public Inventory count(Map<String, String> committed, Instant oldBefore)
      throws AuthException, InterruptedException {
    List<ObjectCount> out = new ArrayList<>();
    long calls = 0;
    Optional<Instant> until = config.window().until();
    Instant oldUntil = until.filter(u -> u.isBefore(oldBefore)).orElse(oldBefore);
    for (ObjectSpec spec : config.objects()) {
      if (EloPoll.isEventLogObject(spec.name())) {
        EloCount elo = countEventLogObject(spec, committed, oldBefore);
        out.add(elo.count());
        calls += elo.calls();
        continue;
      }
      ObjectCursor cursor = poller.load(spec, k -> Optional.ofNullable(committed.get(k)));
      boolean settled =
          config.window().untilReachedBy(salesforceNow.get().minus(spec.settleWindow()));
      OptionalLong rows = OptionalLong.empty();
      OptionalLong oldRows = OptionalLong.empty();
      Optional<String> problem = Optional.empty();
      try {
        calls++;
        rows = OptionalLong.of(count(spec, cursor, until));
        boolean reachesOld = cursor.watermark().isBefore(oldBefore);
        calls += reachesOld ? 1 : 0;
        oldRows = OptionalLong.of(reachesOld ? count(spec, cursor, Optional.of(oldUntil)) : 0);
      } catch (SalesforceApiException e) {
        problem =
            Optional.of(
                "not counted: "
                    + e.getMessage()
                    + (spec.bigObject()
                        ? " (big objects allow no COUNT(): rows unknown until a run drains them)"
                        : ""));
      }
      out.add(
          new ObjectCount(
              spec.name(),
              spec.bigObject(),
              rows,
              oldRows,
              settled,
              problem,
              ObjectQueries.PAGE,
              1));
    }
    return new Inventory(out, pollsLimits ? 1 : 0, calls);
  }

  private record EloCount(ObjectCount count, long calls) {}

  /**
   * An Event Log Object's rows from its checkpoint token (else the window's start, else the
   * lookback) below the window's {@code until}, counted per window of at most 15 days.
   */
  private EloCount countEventLogObject(
      ObjectSpec spec, Map<String, String> committed, Instant oldBefore)
      throws AuthException, InterruptedException {
    Instant now = salesforceNow.get();
    Instant until = config.window().until().orElse(now.minus(spec.settleWindow()));
    Instant from =
        Optional.ofNullable(committed.get(spec.checkpointKey()))
            .flatMap(EloPoll::decodeQuietly)
            .map(EloCheckpoint::from)
            .orElseGet(() -> config.window().start().orElse(now.minus(spec.lookback())));
    long windows = EloPoll.windows(from, until);
    boolean settled = config.window().untilReachedBy(now.minus(spec.settleWindow()));
    long[] calls = {0};
    try {
      long rows = countRange(spec, from, until, calls);
      Instant oldUntil = until.isBefore(oldBefore) ? until : oldBefore;
      long old = from.isBefore(oldBefore) ? countRange(spec, from, oldUntil, calls) : 0;
      return new EloCount(
          new ObjectCount(
              spec.name(),
              false,
              OptionalLong.of(rows),
              OptionalLong.of(old),
              settled,
              Optional.empty(),
              EloReader.PAGE,
              windows + 1),
          calls[0]);
    } catch (SalesforceApiException e) {
      return new EloCount(
          new ObjectCount(
              spec.name(),
              false,
              OptionalLong.empty(),
              OptionalLong.empty(),
              settled,
              Optional.of(
                  "not counted: "
                      + e.getMessage()
                      + " (Salesforce refused COUNT() on this Event Log Object: rows unknown until"
                      + " a run reads them)"),
              EloReader.PAGE,
              windows + 1),
          calls[0]);
    }
  }

  /** {@code SELECT COUNT()} of {@code [from, until)}, one query per window of at most 15 days. */
  private long countRange(ObjectSpec spec, Instant from, Instant until, long[] calls)
      throws SalesforceApiException, AuthException, InterruptedException {
    long total = 0;
    for (Instant a = from; a.isBefore(until); a = a.plus(EloReader.MAX_WINDOW)) {
      Instant b =
          a.plus(EloReader.MAX_WINDOW).isBefore(until) ? a.plus(EloReader.MAX_WINDOW) : until;
      calls[0]++;
      total +=
          rest.query(
                  "SELECT COUNT() FROM "
                      + spec.name()
                      + " WHERE Timestamp >= "
                      + Soql.datetimeLiteral(a)
                      + " AND Timestamp < "
                      + Soql.datetimeLiteral(b))
              .totalSize();
    }
    return total;
  }

  /** The rows from {@code cursor} below {@code until}, without the settle bound. */
  private long count(ObjectSpec spec, ObjectCursor cursor, Optional<Instant> until)
      throws SalesforceApiException, AuthException, InterruptedException {
    String soql =
        new ObjectQueries(spec, Optional.empty(), until).count(cursor.watermark(), cursor.lastId());
    return rest.query(soql).totalSize();
  }

  /** Closes the source's HTTP client. */
  @Override
  public void close() throws IOException {
    resources.close();
  }
}
