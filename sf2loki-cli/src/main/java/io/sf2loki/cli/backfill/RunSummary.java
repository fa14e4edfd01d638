package io.sf2loki.cli.backfill;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.pipeline.PipelineMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a backfill run did, read from the metrics the engine, the source and the sink record (the
 * same instruments the daemon exports): files downloaded, rows emitted and dropped, bytes
 * downloaded and pushed, Salesforce API calls. Rows pushed are the rows emitted less the dropped
 * ones, which is exact once the run {@code finished} (everything emitted was delivered).
 *
 * @param registry the run's meter registry
 * @param elapsed how long the run took
 * @param finished whether every source finished and everything was delivered
 * @param request the run's source and window; a source that reads files (EventLogFile) has files
 *     and downloaded bytes shown, which event objects have not
 * @param prior the window's progress before the run: with {@code finished}, whether the run read
 *     the window from its start, resumed it, or found it already read ({@link WindowVerdict})
 */
record RunSummary(
    MeterRegistry registry,
    Duration elapsed,
    boolean finished,
    BackfillRequest request,
    PriorProgress prior) {

  static final String FILES = "sf2loki_eventlogfile_files_processed";
  static final String DOWNLOAD_BYTES = "sf2loki_eventlogfile_download_bytes";
  static final String INGESTED = "sf2loki_events_ingested";
  static final String BYTES_PUSHED = "sf2loki_loki_bytes_pushed";
  static final String API_CALLS = "sf2loki_salesforce_api_calls";

  /** One line per event type, the totals line, then (once finished) what it did to the window. */
  String render() {
    boolean files = request.source().equals(BackfillRequest.EVENTLOGFILE);
    StringBuilder out = new StringBuilder();
    for (String type : eventTypes()) {
      out.append("  ").append(type).append(':');
      if (files) {
        out.append(" files=").append(sum(FILES, type));
      }
      out.append(" rows=").append(sum(INGESTED, type) - sum(PipelineMetrics.ENTRIES_DROPPED, type));
      if (files) {
        out.append(" bytes=").append(sum(DOWNLOAD_BYTES, type));
      }
      out.append('\n');
    }
    long emitted = sum(INGESTED, null);
    long dropped = sum(PipelineMetrics.ENTRIES_DROPPED, null);
    long fileCount = files ? sum(FILES, null) : 0;
    WindowVerdict verdict = WindowVerdict.of(prior, fileCount > 0 || emitted > 0);
    out.append(finished ? verdict.totalsPrefix() : "backfill stopped:")
        .append(files ? " files=" + fileCount : "")
        .append(finished ? " rows_pushed=" + (emitted - dropped) : " rows_emitted=" + emitted)
        .append(" rows_dropped=")
        .append(dropped)
        .append(files ? " bytes=" + sum(DOWNLOAD_BYTES, null) : "")
        .append(" bytes_pushed=")
        .append(sum(BYTES_PUSHED, null))
        .append(" api_calls=")
        .append(sum(API_CALLS, null))
        .append(" elapsed=")
        .append(String.format(Locale.ROOT, "%.1fs", elapsed.toMillis() / 1000.0));
    if (finished) {
      String pushed =
          (files ? count(fileCount, "file") + ", " : "") + count(emitted - dropped, "row");
      out.append('\n').append(verdict.render(request, prior, pushed));
    }
    return out.toString();
  }

  private static String count(long n, String unit) {
    return n + " " + unit + (n == 1 ? "" : "s");
  }

  private Set<String> eventTypes() {
    Set<String> types = new TreeSet<>();
    for (String name : List.of(FILES, INGESTED)) {
      registry.find(name).counters().stream()
          .map(c -> c.getId().getTag("event_type"))
          .filter(Objects::nonNull)
          .forEach(types::add);
    }
    return types;
  }

  /** The sum of a counter family, of one event type when {@code type} is given. */
  private long sum(String name, String type) {
    var search = registry.find(name);
    if (type != null) {
      search = search.tag("event_type", type);
    }
    return Math.round(search.counters().stream().mapToDouble(Counter::count).sum());
  }
}
