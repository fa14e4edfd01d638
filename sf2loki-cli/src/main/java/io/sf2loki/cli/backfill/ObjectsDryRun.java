package io.sf2loki.cli.backfill;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.source.eventlogobjects.EventLogObjectsSourceProvider;
import io.sf2loki.source.eventlogobjects.ObjectInventory;
import io.sf2loki.source.eventlogobjects.ObjectInventory.Inventory;
import io.sf2loki.source.eventlogobjects.ObjectInventory.ObjectCount;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code backfill --source eventlog_objects --dry-run}: counts what the run would read, from where
 * it would resume, before anything is sent: per object and in total the rows (exact: one {@code
 * SELECT COUNT()} per object over the window, one more when the window reaches below Loki's age
 * cutoff), the API calls the run would make (a query page per 200 rows and the short page ending
 * each object, plus the {@code /limits} read) and how many rows are older than Loki accepts. Event
 * objects list no sizes: bytes are unknown until fetched. Big objects allow no {@code COUNT()}:
 * their rows are reported unknown. It reads the backfill's document without taking its lock and
 * writes nothing.
 */
final class ObjectsDryRun {

  private ObjectsDryRun() {}

  /** Counts, prints the estimate and returns 0. */
  static int run(Sf2LokiConfig config, BackfillRequest request, Clock clock, PrintWriter out)
      throws AuthException, InterruptedException, IOException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Map<String, String> committed = DryRun.committed(config, clock, registry);
    LokiAge age = LokiAge.of(config);
    Instant cutoff = age.cutoff(clock.instant());
    Inventory inventory;
    try (ObjectInventory objects =
        EventLogObjectsSourceProvider.inventory(
                config.sources().get(request.source()), DryRun.environment(config, clock, registry))
            .orElseThrow()) {
      inventory = objects.count(committed, cutoff);
    }
    PriorProgress prior = PriorProgress.of(config.store().location(), committed, request);
    out.println(DryRun.header("counted", request, prior));
    long rows = 0;
    long oldRows = 0;
    long pages = 0;
    List<String> uncounted = new ArrayList<>();
    for (ObjectCount o : inventory.objects()) {
      rows += o.rows().orElse(0);
      oldRows += o.oldRows().orElse(0);
      pages += o.queryCalls().orElse(0);
      if (o.rows().isEmpty()) {
        uncounted.add(o.object());
      }
      out.println(
          "  "
              + o.object()
              + ": rows="
              + text(o.rows())
              + " query_calls="
              + text(o.queryCalls())
              + " too_old_rows="
              + text(o.oldRows())
              + o.problem().map(p -> " (" + p + ")").orElse("")
              + (o.settled()
                  ? ""
                  : " (--until is inside its settle_window: the run polls every poll_interval"
                      + " until it has settled, with more query calls)"));
    }
    String unknown = uncounted.isEmpty() ? "" : "+unknown";
    out.println(
        "estimate: rows="
            + rows
            + unknown
            + " api_calls~"
            + (pages + inventory.limitsCalls())
            + unknown
            + " too_old_rows="
            + oldRows
            + unknown
            + " bytes=unknown");
    out.println(
        "  rows: counted exactly by one SELECT COUNT() per object over the window"
            + (uncounted.isEmpty()
                ? ""
                : "; not counted, so unknown until fetched: " + String.join(", ", uncounted)));
    out.println(
        "  api_calls~: "
            + pages
            + " query pages (one per 200 rows, or 2000 for an Event Log Object, and the short"
            + " page ending each object or each 15-day window of an Event Log Object, plus its"
            + " describe) + "
            + inventory.limitsCalls()
            + " org limits read (this dry run made "
            + DryRun.calls(registry)
            + ", its "
            + inventory.countCalls()
            + " COUNT() queries)");
    out.println(
        "  bytes: unknown until fetched: Salesforce lists no sizes for event objects (each row"
            + " becomes one line of its canonical JSON)");
    out.println("  too_old: rows older than " + age.beyond(cutoff));
    DryRun.alreadyComplete(prior, rows == 0 && uncounted.isEmpty()).ifPresent(out::println);
    return 0;
  }

  private static String text(OptionalLong n) {
    return n.isPresent() ? Long.toString(n.getAsLong()) : "unknown";
  }
}
