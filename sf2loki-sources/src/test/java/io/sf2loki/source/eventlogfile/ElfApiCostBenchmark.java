package io.sf2loki.source.eventlogfile;

import io.sf2loki.model.LogEntry;
import io.sf2loki.salesforce.limits.ApiBudget;
import io.sf2loki.salesforce.limits.ApiBudgetConfig;
import io.sf2loki.salesforce.soql.Soql;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.testkit.salesforce.Fault;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the EventLogFile source costs in Salesforce API calls, counted by the fake org ({@code
 * ApiUsage}), with the defaults of {@code sources.eventlogfile} ({@code event_types = ["*"]},
 * Hourly, {@code poll_interval = 10m}, {@code concurrency = 4}, {@code page_size = 1000}). Not a
 * test: {@code just bench-elf-calls [key=value ...]} (docs/performance.md).
 *
 * <ul>
 *   <li>{@code mode=day} (the default): one simulated day on the controllable clock (no wall-clock
 *       wait). {@code types} event types (20) each get one Hourly file an hour, created 20 minutes
 *       after the hour it covers; every type's cursor starts at the day's start, as a daemon's that
 *       ran before it. The source runs its own loop; each poll wait moves the clock instead of
 *       sleeping. {@code budget=on} (the default) meters the org's API share ({@code /limits} polls
 *       and pacing, {@code salesforce.api_share = 0.2} of {@code limit}, 15000); {@code budget=off}
 *       runs unmetered.
 *   <li>{@code mode=catchup}: {@code days} (7) × {@code types} (20) Hourly files behind the
 *       cursors, every request of the fake delayed by {@code latency_ms} (150), drained by one
 *       cycle on the wall clock, against the bound files × latency / {@code concurrency}.
 * </ul>
 */
public final class ElfApiCostBenchmark {

  private static final List<String> TYPES =
      List.of(
          "Login",
          "Logout",
          "API",
          "RestApi",
          "URI",
          "LightningInteraction",
          "LightningPageView",
          "LightningPerformance",
          "LightningError",
          "Report",
          "ReportExport",
          "Dashboard",
          "ApexExecution",
          "ApexCallout",
          "ApexTrigger",
          "ApexSoap",
          "VisualforceRequest",
          "ContentTransfer",
          "BulkApi",
          "QueuedExecution");

  private ElfApiCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new LinkedHashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      opts.put(a.substring(0, eq), a.substring(eq + 1));
    }
    int types = Integer.parseInt(opts.getOrDefault("types", "20"));
    int rows = Integer.parseInt(opts.getOrDefault("rows", "10"));
    if (opts.getOrDefault("mode", "day").equals("catchup")) {
      catchUp(
          types,
          rows,
          Integer.parseInt(opts.getOrDefault("days", "7")),
          Duration.ofMillis(Long.parseLong(opts.getOrDefault("latency_ms", "150"))));
    } else {
      day(
          types,
          rows,
          !opts.getOrDefault("budget", "on").equals("off"),
          Long.parseLong(opts.getOrDefault("limit", "15000")));
    }
  }

  static List<String> types(int n) {
    List<String> out = new ArrayList<>(TYPES.subList(0, Math.min(n, TYPES.size())));
    for (int i = out.size(); i < n; i++) {
      out.add("Type" + (i + 1));
    }
    return out;
  }

  /** One Hourly file per type and hour in [from, to), created 20 minutes after its hour. */
  private static long addFiles(ElfFixture fx, List<String> types, Instant from, Instant to, int r) {
    long n = 0;
    for (Instant h = from; h.isBefore(to); h = h.plus(1, ChronoUnit.HOURS)) {
      for (String t : types) {
        fx.sf.addLogFile(t, "Hourly", h, h.plus(Duration.ofMinutes(80)), r);
        n++;
      }
    }
    return n;
  }

  private static void day(int typeCount, int rows, boolean metered, long limit) throws Exception {
    Instant end = Instant.now().truncatedTo(ChronoUnit.HOURS);
    Instant start = end.minus(1, ChronoUnit.DAYS);
    MutableClock clock = new MutableClock(start);
    List<String> types = types(typeCount);
    try (ElfFixture fx = ElfFixture.onClock(clock)) {
      fx.sampleServerClock = false; // the Date header carries real time, not the simulated day's
      fx.sf.apiUsage().limit(limit);
      fx.budget =
          metered
              ? new ApiBudget(ApiBudgetConfig.DEFAULTS, clock, fx.metrics, new Random(1))
              : ApiBudget.unmetered();
      long files =
          addFiles(
              fx, types, start.minus(1, ChronoUnit.HOURS), end.minus(1, ChronoUnit.HOURS), rows);
      SimulatedDay ctx = new SimulatedDay(clock, end);
      types.forEach(
          t ->
              ctx.committed.put(
                  ElfCursors.key(t), ElfCheckpoint.initial(Soql.datetimeLiteral(start)).format()));
      long startNanos = System.nanoTime();
      fx.source(ElfFixture.bind("")).run(ctx);
      long used = fx.sf.apiUsage().used();
      long queries = fx.sf.stats().requests(Fault.Route.QUERY);
      long downloads = fx.sf.stats().requests(Fault.Route.LOGFILE);
      System.out.printf(
          Locale.ROOT,
          "RESULT eventlogfile day: %d types, budget %s (api_share 0.2 of %d), %d cycles in 24 h"
              + " simulated (%.1f s wall): %d API calls = %d queries (discovery + listing) + %d"
              + " downloads + %d other (/limits); %d of %d files listed by then, %d rows; the"
              + " Python original's hourly per-type listing: 24 x (%d + 1) = %d queries%n",
          typeCount,
          metered ? "on" : "off",
          limit,
          ctx.cycles,
          (System.nanoTime() - startNanos) / 1e9,
          used,
          queries,
          downloads,
          used - queries - downloads,
          downloads,
          files,
          ctx.rows,
          typeCount,
          24 * (typeCount + 1));
    }
  }

  private static void catchUp(int typeCount, int rows, int days, Duration latency)
      throws Exception {
    List<String> types = types(typeCount);
    try (ElfFixture fx = new ElfFixture()) {
      Instant end = fx.clock.instant().truncatedTo(ChronoUnit.HOURS).minus(2, ChronoUnit.HOURS);
      Instant start = end.minus(days, ChronoUnit.DAYS);
      long files = addFiles(fx, types, start, end, rows);
      RecordingSourceContext ctx = new RecordingSourceContext().discardEntries();
      String cursor = ElfCheckpoint.initial(Soql.datetimeLiteral(start)).format();
      types.forEach(t -> ctx.committed(ElfCursors.key(t), cursor));
      EventLogFileConfig config = ElfFixture.bind("");
      fx.sf.inject(Fault.latency(Fault.Route.ANY, latency).times(Integer.MAX_VALUE));
      long startNanos = System.nanoTime();
      fx.source(config).cycleOnce(ctx);
      double secs = (System.nanoTime() - startNanos) / 1e9;
      double bound = files * latency.toMillis() / 1000.0 / config.concurrency();
      System.out.printf(
          Locale.ROOT,
          "RESULT eventlogfile catch-up: %d days x %d types = %d Hourly files, %d rows, %d ms per"
              + " request, concurrency %d: %.1f s (bound files x latency / concurrency = %.1f s,"
              + " %.2fx); %d API calls = %d queries + %d downloads%n",
          days,
          typeCount,
          files,
          ctx.rowCount(),
          latency.toMillis(),
          config.concurrency(),
          secs,
          bound,
          secs / bound,
          fx.sf.apiUsage().used(),
          fx.sf.stats().requests(Fault.Route.QUERY),
          fx.sf.stats().requests(Fault.Route.LOGFILE));
    }
  }

  /**
   * The pipeline of a simulated day: every entry is delivered at once (its checkpoint committed),
   * and a poll wait moves the clock instead of sleeping, until the day's end.
   */
  private static final class SimulatedDay implements SourceContext {
    private final MutableClock clock;
    private final Instant end;
    final Map<String, String> committed = new ConcurrentHashMap<>();
    long cycles;
    long rows;

    SimulatedDay(MutableClock clock, Instant end) {
      this.clock = clock;
      this.end = end;
    }

    @Override
    public synchronized void emit(LogEntry entry) {
      entry.checkpoint().ifPresent(t -> committed.put(t.key(), t.value()));
      rows += entry.isCheckpointOnly() ? 0 : 1;
    }

    @Override
    public Optional<String> checkpoint(String key) {
      return Optional.ofNullable(committed.get(key));
    }

    @Override
    public boolean stopRequested() {
      return !clock.instant().isBefore(end);
    }

    @Override
    public boolean awaitStop(Duration timeout) {
      cycles++;
      clock.advance(timeout);
      return stopRequested();
    }
  }
}
