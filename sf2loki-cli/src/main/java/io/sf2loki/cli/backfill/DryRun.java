package io.sf2loki.cli.backfill;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.source.eventlogfile.ElfInventory;
import io.sf2loki.source.eventlogfile.ElfInventory.Listing;
import io.sf2loki.source.eventlogfile.ElfInventory.TypeListing;
import io.sf2loki.source.eventlogfile.EventLogFileSourceProvider;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.SourceProvider;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * {@code backfill --dry-run}: lists what the run would read, from where it would resume, and prints
 * an estimate before anything is sent: per event type and in total the files, bytes, rows
 * (estimated: Salesforce lists no row counts, so one sample file per type is downloaded and
 * counted) and API calls, and how many of them are older than Loki accepts. It reads the backfill's
 * document without taking its lock and writes nothing.
 */
final class DryRun {

  private final Sf2LokiConfig config;
  private final BackfillRequest request;
  private final Clock clock;
  private final PrintWriter out;

  DryRun(Sf2LokiConfig config, BackfillRequest request, Clock clock, PrintWriter out) {
    this.config = config;
    this.request = request;
    this.clock = clock;
    this.out = out;
  }

  int run() throws AuthException, InterruptedException, IOException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Map<String, String> committed = committed(config, clock, registry);
    LokiAge age = LokiAge.of(config);
    java.time.Instant cutoff = age.cutoff(clock.instant());
    SourceProvider.Factory factory = config.sources().get(request.source());
    SourceEnvironment env = environment(config, clock, registry);
    Listing listing;
    try (ElfInventory inventory =
        EventLogFileSourceProvider.inventory(factory, env).orElseThrow()) {
      listing = inventory.list(committed, cutoff);
    }
    PriorProgress prior = PriorProgress.of(config.store().location(), committed, request);
    out.println(header("listed", request, prior));
    Totals total = new Totals();
    for (TypeListing t : listing.types()) {
      long rows = t.estimateRows();
      long oldRows = t.estimateOldRows();
      total.add(t, rows, oldRows);
      out.println(
          "  "
              + t.eventType()
              + ": files="
              + t.files()
              + " bytes="
              + t.bytes()
              + " rows~"
              + rows
              + " too_old_files="
              + t.oldFiles()
              + " too_old_rows~"
              + oldRows
              + t.problem().map(p -> " (" + p + ")").orElse(""));
    }
    listing.problem().ifPresent(p -> out.println("  listing stopped early: " + p));
    long apiCalls =
        listing.discoveryCalls() + listing.limitsCalls() + listing.listingCalls() + total.files;
    out.println(
        "estimate: files="
            + total.files
            + " bytes="
            + total.bytes
            + " rows~"
            + total.rows
            + " api_calls~"
            + apiCalls
            + " too_old_files="
            + total.oldFiles
            + " too_old_bytes="
            + total.oldBytes
            + " too_old_rows~"
            + total.oldRows);
    out.println(
        "  rows~: estimated from bytes by the bytes per row of one sample file per type (its"
            + " smallest file with rows, downloaded and counted)");
    out.println(
        "  api_calls~: "
            + listing.discoveryCalls()
            + " type discovery + "
            + listing.listingCalls()
            + " listing (one query for every type) + "
            + total.files
            + " download calls + "
            + listing.limitsCalls()
            + " org limits read (this dry run made "
            + calls(registry)
            + ")");
    out.println("  too_old: files created before " + age.beyond(cutoff));
    alreadyComplete(prior, total.files == 0 && listing.problem().isEmpty()).ifPresent(out::println);
    return 0;
  }

  /**
   * {@code backfill dry run: nothing is sent; <verb> <source> from … until …, <from where>}: the
   * window's start, or where earlier runs of this window stopped.
   */
  static String header(String verb, BackfillRequest request, PriorProgress prior) {
    return "backfill dry run: nothing is sent; "
        + verb
        + " "
        + request.source()
        + " from "
        + request.since()
        + " until "
        + request.until()
        + (prior.any()
            ? ", resuming where an earlier run of this window stopped ("
                + prior.typeList()
                + "; progress in "
                + prior.document()
                + ")"
            : ", from the window's start (progress would go to " + prior.document() + ")");
  }

  /**
   * The line saying that earlier runs of this window read it all, when they did and nothing is
   * left.
   */
  static Optional<String> alreadyComplete(PriorProgress prior, boolean nothingLeft) {
    if (!prior.any() || !nothingLeft) {
      return Optional.empty();
    }
    return Optional.of(
        "  nothing to do: earlier runs of this window had already read it to its end (progress in "
            + prior.document()
            + "); to re-ingest it, delete that document");
  }

  /** What a source of the dry run sees: the run's clock and labels, {@code registry}'s meters. */
  static SourceEnvironment environment(
      Sf2LokiConfig config, Clock clock, SimpleMeterRegistry registry) {
    return new SourceEnvironment(
        clock,
        Ticker.SYSTEM,
        new Random(),
        new NamedThreadFactory("sf2loki-backfill"),
        registry,
        ConfiguredEngine.deploymentLabels(config),
        config.categoryOwnership());
  }

  /** The backfill's document as a run would resume from it, read without its lock. */
  static Map<String, String> committed(
      Sf2LokiConfig config, Clock clock, SimpleMeterRegistry registry) {
    try (CheckpointStore store =
        config.store().create(new StoreEnvironment(false, clock, registry))) {
      return store.loadAll();
    }
  }

  /** The Salesforce API calls made so far. */
  static long calls(SimpleMeterRegistry registry) {
    return Math.round(
        registry.find(RunSummary.API_CALLS).counters().stream().mapToDouble(Counter::count).sum());
  }

  /** Sums over the types. */
  private static final class Totals {
    long files;
    long bytes;
    long rows;
    long oldFiles;
    long oldBytes;
    long oldRows;

    void add(TypeListing t, long typeRows, long typeOldRows) {
      files += t.files();
      bytes += t.bytes();
      rows += typeRows;
      oldFiles += t.oldFiles();
      oldBytes += t.oldBytes();
      oldRows += typeOldRows;
    }
  }
}
