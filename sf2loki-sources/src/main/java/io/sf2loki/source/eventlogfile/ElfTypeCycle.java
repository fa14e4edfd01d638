package io.sf2loki.source.eventlogfile;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.salesforce.soql.Condition;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.salesforce.soql.SoqlQuery;
import io.sf2loki.shape.TypeShaping;
import io.sf2loki.spi.SourceContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One event type's work in one cycle: list files from the cursor, and for each unseen file in
 * (CreatedDate, Id) order download it into a spool, emit its rows carrying the pre-file checkpoint
 * and then a checkpoint-only entry with the advanced one (invariant 1). Listing repeats while pages
 * are full. Strictly sequential; one instance serves all types (state lives in {@link ElfCursors}).
 */
final class ElfTypeCycle {

  /** How a type's cycle ended. */
  enum Outcome {
    DONE,
    STOPPED,
    SETTLING,
    STALLED,
    LISTING_FAILED,
    DOWNLOAD_FAILED,
    THROTTLED
  }

  private static final Logger LOG = LoggerFactory.getLogger(ElfTypeCycle.class);
  private static final String[] LISTING_FIELDS = {
    "Id", "EventType", "Interval", "LogDate", "CreatedDate", "LogFileLength", "Sequence"
  };

  private final EventLogFileConfig config;
  private final SalesforceRestClient rest;
  private final ServerClock serverClock;
  private final ElfCursors cursors;
  private final ElfEntries entries;
  private final ElfMetrics metrics;
  private final Escalation escalation;

  ElfTypeCycle(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ServerClock serverClock,
      ElfCursors cursors,
      ElfEntries entries,
      ElfMetrics metrics,
      Escalation escalation) {
    this.config = config;
    this.rest = rest;
    this.serverClock = serverClock;
    this.cursors = cursors;
    this.entries = entries;
    this.metrics = metrics;
    this.escalation = escalation;
  }

  /** The listing query for {@code type} from {@code cursor}. */
  String listingQuery(String type, ElfCheckpoint cursor) {
    return SoqlQuery.select(LISTING_FIELDS)
        .from("EventLogFile")
        .where(Condition.equalTo("EventType", Soql.stringLiteral(Soql.identifier(type))))
        .where(Condition.equalTo("Interval", Soql.intervalLiteral(config.interval())))
        .where(Condition.atLeast("CreatedDate", Soql.datetimeLiteral(cursor.watermark())))
        .orderBy("CreatedDate", "Id")
        .limit(config.pageSize())
        .build();
  }

  Outcome run(String type, SourceContext ctx, AtomicBoolean throttled)
      throws AuthException, InterruptedException {
    while (true) {
      if (ctx.stopRequested()) {
        return Outcome.STOPPED;
      }
      if (throttled.get()) {
        return Outcome.THROTTLED;
      }
      ElfCheckpoint cursor = cursors.current(type, ctx);
      List<ElfFile> files;
      try {
        files = list(type, cursor);
      } catch (ThrottledException e) {
        throttled.set(true);
        metrics.throttled("soql");
        LOG.error(
            "EventLogFile listing for {} throttled; the cycle stops: {}", type, e.getMessage());
        return Outcome.THROTTLED;
      } catch (SalesforceApiException e) {
        metrics.pollError(type);
        metrics.downloadError("listing");
        escalation.failed("listing " + type, "EventLogFile listing for " + type + " failed", e);
        return Outcome.LISTING_FAILED;
      }
      escalation.succeeded("listing " + type);
      List<ElfFile> fresh = new ArrayList<>();
      for (ElfFile f : files) {
        if (!cursor.contains(f.id(), f.created())) {
          fresh.add(f);
        }
      }
      for (ElfFile f : fresh) {
        Outcome o = processFile(type, f, ctx, throttled);
        if (o != Outcome.DONE) {
          return o;
        }
      }
      if (files.size() < config.pageSize()) {
        return Outcome.DONE;
      }
      if (fresh.isEmpty()) {
        LOG.warn(
            "EventLogFile {}: a full page of {} files at {} holds nothing new; more files share one"
                + " CreatedDate than page_size, stopping this type for the cycle",
            type,
            files.size(),
            cursor.lastCreated());
        return Outcome.STALLED;
      }
    }
  }

  private List<ElfFile> list(String type, ElfCheckpoint cursor)
      throws SalesforceApiException, AuthException, InterruptedException {
    List<ElfFile> files = new ArrayList<>();
    for (var r : rest.query(listingQuery(type, cursor)).records()) {
      Optional<ElfFile> f = ElfFile.of(r, type, config.interval());
      if (f.isPresent()) {
        files.add(f.get());
      } else {
        LOG.warn("EventLogFile {}: skipping a listed record without a valid Id/CreatedDate", type);
      }
    }
    return files;
  }

  private Outcome processFile(String type, ElfFile f, SourceContext ctx, AtomicBoolean throttled)
      throws AuthException, InterruptedException {
    if (ctx.stopRequested()) {
      return Outcome.STOPPED;
    }
    if (throttled.get()) {
      return Outcome.THROTTLED;
    }
    if (f.created().isAfter(serverClock.now().minus(config.settleWindow()))) {
      LOG.debug("EventLogFile {} {} is inside the settle window; next cycle", type, f.id());
      return Outcome.SETTLING;
    }
    ElfCheckpoint before = cursors.current(type, ctx);
    Optional<Spool> spool;
    try {
      spool = Optional.of(download(type, f));
    } catch (ThrottledException e) {
      throttled.set(true);
      metrics.throttled("eventlogfile");
      LOG.error("EventLogFile download of {} {} throttled; the cycle stops", type, f.id());
      return Outcome.THROTTLED;
    } catch (SalesforceApiException e) {
      metrics.downloadError(e.reason());
      return downloadFailed(type, f, ctx, before, e);
    }
    try (Spool body = spool.get()) {
      if (!emitRows(type, f, body, ctx, before)) {
        return Outcome.STOPPED; // mid-file: the cursor stays before the file, which is re-read
      }
    } catch (IOException | UncheckedIOException e) {
      metrics.downloadError("csv");
      return downloadFailed(type, f, ctx, before, e);
    }
    escalation.succeeded("download " + type);
    advance(type, f, ctx, before);
    return ctx.stopRequested() ? Outcome.STOPPED : Outcome.DONE;
  }

  private Spool download(String type, ElfFile f)
      throws SalesforceApiException, AuthException, InterruptedException {
    String path = rest.dataPath("sobjects/EventLogFile/" + f.id() + "/LogFile");
    Spool spool =
        rest.download(path, in -> Spool.fill(in, config.spoolMemory(), config.spoolDir()));
    metrics.downloadBytes(type, spool.size());
    metrics.fileProcessed(type);
    return spool;
  }

  /**
   * Emits the shaped rows, each carrying the pre-file checkpoint; a dropped or sampled-out row
   * emits nothing, since the file-completing checkpoint always follows as its own checkpoint-only
   * entry ({@link #advance}). False when a stop arrived before the last row.
   */
  private boolean emitRows(
      String type, ElfFile f, Spool body, SourceContext ctx, ElfCheckpoint before)
      throws IOException, InterruptedException {
    CheckpointToken token = new CheckpointToken(ElfCursors.key(type), before.format());
    TypeShaping shaping = config.shapingOf(type);
    long rows = 0;
    try (InputStream in = body.open();
        CsvRows csv = new CsvRows(in)) {
      while (csv.hasNext()) {
        if (ctx.stopRequested()) {
          return false;
        }
        Optional<LogEntry> entry = entries.row(shaping, csv.next(), f, token);
        if (entry.isPresent()) {
          ctx.emit(entry.get());
          rows++;
        }
      }
    } finally {
      metrics.rowsIngested(type, rows);
    }
    return true;
  }

  /** Rows before carried {@code before}; this queues the advanced cursor behind them. */
  private void advance(String type, ElfFile f, SourceContext ctx, ElfCheckpoint before)
      throws InterruptedException {
    ElfCheckpoint after = before.advance(f.id(), f.createdRaw());
    ctx.emit(LogEntry.checkpointOnly(new CheckpointToken(ElfCursors.key(type), after.format())));
    cursors.update(type, after);
  }

  private Outcome downloadFailed(
      String type, ElfFile f, SourceContext ctx, ElfCheckpoint before, Exception e)
      throws InterruptedException {
    if (f.created().isBefore(serverClock.now().minus(config.downloadMaxAge()))) {
      LOG.error(
          "EventLogFile {} {} (created {}) keeps failing and is older than download_max_age;"
              + " abandoning it: {}",
          type,
          f.id(),
          f.createdRaw(),
          e.getMessage());
      advance(type, f, ctx, before);
      return Outcome.DONE;
    }
    escalation.failed(
        "download " + type,
        "EventLogFile download of " + type + " " + f.id() + " failed; retrying next cycle",
        e);
    return Outcome.DOWNLOAD_FAILED;
  }
}
