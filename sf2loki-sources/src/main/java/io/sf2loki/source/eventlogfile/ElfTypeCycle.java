package io.sf2loki.source.eventlogfile;

import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ServerClock;
import io.sf2loki.salesforce.rest.ThrottledException;
import io.sf2loki.spi.SourceContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One event type's work in one round of the cycle's listing ({@link ElfListing}): for each unseen
 * file in (CreatedDate, Id) order, download it into a spool and emit its rows with the checkpoint
 * carrying of salesforce-api.md §7.4 ({@link ElfFileRows}): every row but the file's last kept one
 * carries the pre-file checkpoint, the last carries the advanced one (invariant 1). A zero-row file
 * is recorded in the id set without moving the watermark. Whatever advance no emitted entry carried
 * (a file whose rows were all dropped, a zero-row file, an abandoned file) rides on one
 * checkpoint-only token at the end of the type's round. Strictly sequential; one instance serves
 * all types (state lives in {@link ElfCursors}).
 */
final class ElfTypeCycle {

  /** How a type's cycle ended. */
  enum Outcome {
    DONE,
    STOPPED,
    SETTLING,
    DOWNLOAD_FAILED,
    THROTTLED
  }

  private static final Logger LOG = LoggerFactory.getLogger(ElfTypeCycle.class);

  private final EventLogFileConfig config;
  private final SalesforceRestClient rest;
  private final ServerClock serverClock;
  private final ElfCursors cursors;
  private final ElfFileRows fileRows;
  private final ElfMetrics metrics;
  private final Escalation escalation;
  private final ElfSchemas schemas;

  ElfTypeCycle(
      EventLogFileConfig config,
      SalesforceRestClient rest,
      ServerClock serverClock,
      ElfCursors cursors,
      ElfFileRows fileRows,
      ElfMetrics metrics,
      Escalation escalation) {
    this.schemas = new ElfSchemas(metrics);
    this.config = config;
    this.rest = rest;
    this.serverClock = serverClock;
    this.cursors = cursors;
    this.fileRows = fileRows;
    this.metrics = metrics;
    this.escalation = escalation;
  }

  /**
   * True when the window has an {@code until} that is not ahead of Salesforce's clock: no file
   * below it can still appear, so a cycle that read every type to the end finishes the source.
   */
  boolean untilPassed() {
    return config.window().until().map(u -> !u.isAfter(serverClock.now())).orElse(false);
  }

  /**
   * Processes {@code files} (the type's files of this round of the listing, in order, none seen by
   * its cursor), then queues the advance no emitted entry carried (also after an auth error).
   */
  Outcome run(String type, List<ElfFile> files, SourceContext ctx, AtomicBoolean throttled)
      throws AuthException, InterruptedException {
    Outcome outcome = Outcome.DONE;
    try {
      for (ElfFile f : files) {
        outcome = processFile(type, f, ctx, throttled);
        if (outcome != Outcome.DONE) {
          break;
        }
      }
    } catch (AuthException e) {
      carryRemainder(type, ctx);
      throw e;
    }
    carryRemainder(type, ctx);
    return outcome;
  }

  /** Queues the cursor of {@code type} on a checkpoint-only token when no entry carried it. */
  void carryRemainder(String type, SourceContext ctx) throws InterruptedException {
    Optional<ElfCheckpoint> open = cursors.uncarried(type);
    if (open.isPresent()) {
      ctx.emit(LogEntry.checkpointOnly(ElfFileRows.token(type, open.get())));
      cursors.carried(type, open.get());
    }
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
      return downloadFailed(type, f, before, e);
    }
    Optional<ElfSchema> schema;
    ElfCheckpoint after;
    ElfFileRows.Emitted emitted;
    try (Spool body = spool.get()) {
      try (InputStream in = body.open()) {
        schema = ElfSchema.of(CsvRows.header(in), f);
      }
      after = recording(covering(before.advance(f.id(), f.createdRaw()), f), schema);
      emitted = fileRows.emit(type, f, config.shapingOf(type), body, ctx, before, after);
    } catch (IOException | UncheckedIOException e) {
      metrics.downloadError("csv");
      return downloadFailed(type, f, before, e);
    }
    escalation.succeeded("download " + type);
    if (emitted.complete()) {
      schema.ifPresent(s -> schemas.read(type, s, before.schema()));
    }
    return afterRows(type, f, before, after, schema, emitted);
  }

  /** {@code cursor} recording the file's schema, when its body had a header. */
  private static ElfCheckpoint recording(ElfCheckpoint cursor, Optional<ElfSchema> schema) {
    return schema.map(s -> cursor.withSchema(s.hash())).orElse(cursor);
  }

  /**
   * {@code cursor} recording that {@code f}'s hour (or day) was read, for an Event Log Object that
   * takes the type over; an abandoned file is never recorded so: its events were not shipped.
   */
  private static ElfCheckpoint covering(ElfCheckpoint cursor, ElfFile f) {
    return f.coveredEnd().map(cursor::covering).orElse(cursor);
  }

  /** Moves the in-memory cursor as far as §7.4 allows after one file's rows were emitted. */
  private Outcome afterRows(
      String type,
      ElfFile f,
      ElfCheckpoint before,
      ElfCheckpoint after,
      Optional<ElfSchema> schema,
      ElfFileRows.Emitted e) {
    if (!e.complete()) {
      if (e.entries() > 0) {
        cursors.carried(type, before);
      }
      return Outcome.STOPPED; // mid-file: the cursor stays before the file, which is re-read
    }
    if (e.rows() == 0) {
      LOG.debug("EventLogFile {} {} has no rows; the watermark stays", type, f.id());
      cursors.update(type, recording(covering(before.remember(f.id(), f.createdRaw()), f), schema));
    } else {
      cursors.update(type, after);
      if (e.entries() > 0) {
        cursors.carried(type, after); // the last kept row carries it
      }
    }
    return Outcome.DONE;
  }

  /** Removes the spooled downloads a crashed process left (see {@link Spool#removeStrays}). */
  void removeStraySpools() {
    Spool.removeStrays(config.spoolDir(), serverClock.now(), metrics.straySpools());
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

  private Outcome downloadFailed(String type, ElfFile f, ElfCheckpoint before, Exception e) {
    if (f.created().isBefore(serverClock.now().minus(config.downloadMaxAge()))) {
      LOG.error(
          "EventLogFile {} {} (created {}) keeps failing and is older than download_max_age;"
              + " abandoning it: {}",
          type,
          f.id(),
          f.createdRaw(),
          e.getMessage());
      cursors.update(type, before.advance(f.id(), f.createdRaw())); // carried by a later token
      return Outcome.DONE;
    }
    escalation.failed(
        "download " + type,
        "EventLogFile download of " + type + " " + f.id() + " failed; retrying next cycle",
        e);
    return Outcome.DOWNLOAD_FAILED;
  }
}
