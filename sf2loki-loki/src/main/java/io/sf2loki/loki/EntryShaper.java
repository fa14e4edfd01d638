package io.sf2loki.loki;

import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shapes a batch's deliverable entries for Loki: the label allowlist ({@link StreamLabelGuard}),
 * the structured metadata limits ({@link MetadataLimit}) and the line cap ({@link LineTruncator}),
 * counting each demotion, trimming and truncation and warning once per demoted label name. Counted
 * per call, so {@link LokiSink} shapes each batch once. Thread-safe.
 */
final class EntryShaper {

  private static final Logger LOG = LoggerFactory.getLogger(EntryShaper.class);

  private final LineTruncator truncator;
  private final StreamLabelGuard labelGuard;
  private final LokiMetrics metrics;
  private final Set<String> warnedLabels = ConcurrentHashMap.newKeySet();

  EntryShaper(LineTruncator truncator, StreamLabelGuard labelGuard, LokiMetrics metrics) {
    this.truncator = truncator;
    this.labelGuard = labelGuard;
    this.metrics = metrics;
  }

  /**
   * The deliverable entries of {@code batch} with the label guard, the structured metadata limits
   * and the line cap applied, in this order: the pairs moved out of the metadata go into the line,
   * which the cap then bounds.
   */
  List<LogEntry> shape(Batch batch) {
    List<LogEntry> out = new ArrayList<>(batch.entries().size());
    for (LogEntry e : batch.deliverable()) {
      StreamLabelGuard.Result guarded = labelGuard.apply(e);
      for (String name : guarded.demoted()) {
        metrics.demoted(name);
        if (warnedLabels.add(name)) {
          LOG.warn(
              "label '{}' is not an allowed stream label (or is invalid); it is sent as"
                  + " structured metadata instead",
              name);
        }
      }
      e = guarded.entry();
      MetadataLimit.Result limited = MetadataLimit.apply(e);
      if (limited.reason().isPresent()) {
        metrics.metadataTrimmed(e, limited.reason().get().tag);
        e = limited.entry();
      }
      Optional<String> cut = truncator.truncate(e.line());
      if (cut.isPresent()) {
        metrics.truncated(e);
        e = e.withLine(cut.get());
      }
      out.add(e);
    }
    return List.copyOf(out);
  }
}
