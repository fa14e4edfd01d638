package io.sf2loki.source.eventlogfile;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.QueryResult;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.salesforce.soql.Condition;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.salesforce.soql.SoqlQuery;
import io.sf2loki.spi.SourceContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cycle's listing of every event type in one query: each type from its own watermark (types
 * sharing one watermark share a term), with {@code *} also the types the run does not know yet from
 * the first-run start, all in one (CreatedDate, Id) order. Pages of {@code page_size} follow each
 * other by keyset (after the last listed CreatedDate and Id), so a page boundary may fall anywhere,
 * inside one type's files included, and any number of files may share one CreatedDate. {@link
 * #next} lists up to {@value #PAGES_PER_ROUND} pages and hands out each type's files that its
 * cursor has not seen, in order; the cycle processes them and asks for the next round, so a backlog
 * drains in one cycle with at most one round of listed files in memory.
 */
final class ElfListing {

  /** Pages listed per round before the round's files are processed. */
  static final int PAGES_PER_ROUND = 10;

  private static final Logger LOG = LoggerFactory.getLogger(ElfListing.class);
  private static final String[] FIELDS = {
    "Id",
    "EventType",
    "Interval",
    "LogDate",
    "CreatedDate",
    "LogFileLength",
    "Sequence",
    "LogFileFieldNames",
    "LogFileFieldTypes"
  };

  /** How a round ended. */
  enum End {
    /** The last page was not full: everything is listed. */
    EXHAUSTED,
    /** The round's pages were full: more to list after processing. */
    MORE,
    /** A page failed; the files listed before it are in the round. */
    FAILED
  }

  /**
   * One round.
   *
   * @param files per type, the files its cursor has not seen, in (CreatedDate, Id) order
   * @param calls API calls the round made (query pages)
   * @param end how it ended
   * @param failure the failed page's error when {@code end} is FAILED
   */
  record Round(
      Map<String, List<ElfFile>> files,
      long calls,
      End end,
      Optional<SalesforceApiException> failure) {}

  private final EventLogFileConfig config;
  private final SalesforceRestClient rest;
  private final ElfTypes types;
  private final ElfCursors cursors;
  private final SourceContext ctx;
  private final Map<String, Instant> bounds;
  private final Map<String, Instant> found = new LinkedHashMap<>();
  private final Optional<Instant> unknownFrom;
  private final Set<String> known;
  private final Set<String> deferred = new TreeSet<>();
  private Optional<ElfFile> after = Optional.empty();
  private boolean exhausted;

  /**
   * @param read the types to list, each from its cursor in {@code ctx}
   */
  ElfListing(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ElfTypes types,
      List<String> read,
      ElfCursors cursors,
      SourceContext ctx) {
    this.config = config;
    this.rest = rest;
    this.types = types;
    this.cursors = cursors;
    this.ctx = ctx;
    this.bounds = new LinkedHashMap<>();
    read.forEach(t -> bounds.put(t, cursors.current(t, ctx).watermark()));
    this.unknownFrom = types.listsUnknown() ? Optional.of(cursors.initialFrom()) : Optional.empty();
    this.known = types.known();
    exhausted = bounds.isEmpty() && unknownFrom.isEmpty();
  }

  /**
   * Types first listed this cycle (appeared after discovery) whose cursor starts before what this
   * listing covered for them: they are read from the next cycle, when the listing names them.
   */
  Set<String> deferred() {
    return Set.copyOf(deferred);
  }

  /** True once the last page was listed. */
  boolean exhausted() {
    return exhausted;
  }

  /**
   * Lists the next round.
   *
   * @throws ThrottledException when a page was throttled (nothing of the round is handed out)
   */
  Round next() throws ThrottledException, AuthException, InterruptedException {
    Map<String, List<ElfFile>> files = new TreeMap<>();
    long calls = 0;
    for (int page = 0; page < PAGES_PER_ROUND && !exhausted; page++) {
      List<ElfFile> listed;
      try {
        QueryResult result = rest.query(query(after));
        calls += result.pages();
        listed = files(result);
      } catch (ThrottledException e) {
        throw e;
      } catch (SalesforceApiException e) {
        return new Round(files, calls + 1, End.FAILED, Optional.of(e));
      }
      listed.forEach(f -> route(f, files));
      exhausted = listed.size() < config.pageSize();
      if (!listed.isEmpty()) {
        after = Optional.of(listed.get(listed.size() - 1));
      }
    }
    return new Round(files, calls, exhausted ? End.EXHAUSTED : End.MORE, Optional.empty());
  }

  private void route(ElfFile f, Map<String, List<ElfFile>> files) {
    String type = f.eventType();
    Instant from = bounds.getOrDefault(type, found.get(type));
    if (from == null) {
      if (known.contains(type) || deferred.contains(type) || !types.admit(type)) {
        return; // refused, or a type this cycle already deferred
      }
      from = cursors.current(type, ctx).watermark();
      if (from.isBefore(unknownFrom.orElseThrow())) {
        LOG.info("EventLogFile: new event type {}; read from the next cycle", type);
        deferred.add(type);
        return;
      }
      found.put(type, from); // the query's terms stay as they were: the scan goes on unchanged
    }
    ElfCheckpoint cursor = cursors.current(type, ctx);
    if (!f.created().isBefore(from) && !cursor.contains(f.id(), f.created())) {
      files.computeIfAbsent(type, t -> new ArrayList<>()).add(f);
    }
  }

  private List<ElfFile> files(QueryResult result) {
    List<ElfFile> out = new ArrayList<>();
    int skipped = 0;
    for (var r : result.records()) {
      Optional<ElfFile> f = ElfFile.of(r, config.interval());
      if (f.isPresent()) {
        out.add(f.get());
      } else {
        skipped++;
      }
    }
    if (skipped > 0 && types.firstUnusableRecord()) {
      LOG.warn(
          "EventLogFile: skipping {} listed records without a valid Id, EventType or CreatedDate"
              + " (logged once)",
          skipped);
    }
    return out;
  }

  /**
   * The listing query: the types' terms, the window's {@code until}, and after {@code last} (the
   * previous page's last file) when there is one.
   */
  String query(Optional<ElfFile> last) {
    SoqlQuery query =
        SoqlQuery.select(FIELDS)
            .from("EventLogFile")
            .where(Condition.equalTo("Interval", Soql.intervalLiteral(config.interval())))
            .where(Condition.anyOf(terms()));
    config
        .window()
        .until()
        .ifPresent(
            u -> query.where(Condition.compare("CreatedDate", "<", Soql.datetimeLiteral(u))));
    last.ifPresent(
        f -> {
          String at = Soql.datetimeLiteral(f.created());
          query.where(
              Condition.anyOf(
                  Condition.compare("CreatedDate", ">", at),
                  Condition.allOf(
                      Condition.compare("CreatedDate", "=", at),
                      Condition.compare("Id", ">", Soql.idLiteral(f.id())))));
        });
    return query.orderBy("CreatedDate", "Id").limit(config.pageSize()).build();
  }

  /** One term per distinct lower bound, oldest first, then the unknown types' term. */
  private List<Condition> terms() {
    Map<Instant, Set<String>> byBound = new TreeMap<>();
    bounds.forEach((t, from) -> byBound.computeIfAbsent(from, k -> new TreeSet<>()).add(t));
    List<Condition> terms = new ArrayList<>();
    byBound.forEach(
        (from, names) ->
            terms.add(
                Condition.allOf(
                    atLeast(from),
                    names.size() == 1
                        ? Condition.equalTo("EventType", literals(names).get(0))
                        : Condition.in("EventType", literals(names)))));
    unknownFrom.ifPresent(
        from ->
            terms.add(
                known.isEmpty()
                    ? Condition.allOf(atLeast(from))
                    : Condition.allOf(
                        atLeast(from), Condition.notIn("EventType", literals(known)))));
    return terms;
  }

  private static Condition atLeast(Instant from) {
    return Condition.atLeast("CreatedDate", Soql.datetimeLiteral(from));
  }

  private static List<String> literals(Set<String> names) {
    return names.stream().map(n -> Soql.stringLiteral(Soql.identifier(n))).toList();
  }
}
