package io.sf2loki.source.eventlogobjects;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
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
 * so Salesforce refuses their count: their rows stay unknown until a run drains them.
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
   */
  public record ObjectCount(
      String object,
      boolean bigObject,
      OptionalLong rows,
      OptionalLong oldRows,
      boolean settled,
      Optional<String> problem) {

    /**
     * The query pages a run's pass spends on the rows: one per full page of {@value
     * ObjectQueries#PAGE} and the short page that ends it. Exact for the ascending path; a drain
     * spends at least as many.
     */
    public OptionalLong queryCalls() {
      return rows.isPresent()
          ? OptionalLong.of(rows.getAsLong() / ObjectQueries.PAGE + 1)
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
      out.add(new ObjectCount(spec.name(), spec.bigObject(), rows, oldRows, settled, problem));
    }
    return new Inventory(out, pollsLimits ? 1 : 0, calls);
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
