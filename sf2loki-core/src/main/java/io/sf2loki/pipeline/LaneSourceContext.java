package io.sf2loki.pipeline;

import io.sf2loki.model.LabelSetMemo;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import io.sf2loki.spi.SourceContext;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one source sees of the run: {@link #emit} charges its lane (blocking while full), stamps the
 * static labels over the entry's own and counts ingest; checkpoints come from the run's committer.
 */
final class LaneSourceContext implements SourceContext {

  private final LaneQueue queue;
  private final Committer committer;
  private final RunControl control;
  private final PipelineMetrics metrics;
  private final Map<String, String> staticLabels;
  private final Clock clock;
  // Label sets merged with the static labels: sources pass one shared label set per stream, so the
  // merge is usually a lookup.
  private final LabelSetMemo<StringMap> merged = new LabelSetMemo<>();

  LaneSourceContext(
      LaneQueue queue,
      Committer committer,
      RunControl control,
      PipelineMetrics metrics,
      Map<String, String> staticLabels,
      Clock clock) {
    this.queue = queue;
    this.committer = committer;
    this.control = control;
    this.metrics = metrics;
    this.staticLabels = staticLabels;
    this.clock = clock;
  }

  @Override
  public void emit(LogEntry entry) throws InterruptedException {
    LogEntry e = entry;
    if (!e.isCheckpointOnly()) {
      e = withStaticLabels(e);
      java.time.Instant now = clock.instant();
      metrics.ingested(e, now.getEpochSecond() * 1_000_000_000L + now.getNano());
    }
    queue.put(e);
  }

  /** The batch under one lock of the lane, and one clock read for its ingest lag. */
  @Override
  public void emit(List<LogEntry> entries) throws InterruptedException {
    List<LogEntry> stamped = new ArrayList<>(entries.size());
    long nowNanos = -1;
    for (LogEntry entry : entries) {
      LogEntry e = entry;
      if (!e.isCheckpointOnly()) {
        e = withStaticLabels(e);
        if (nowNanos < 0) {
          java.time.Instant now = clock.instant();
          nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }
        metrics.ingested(e, nowNanos);
      }
      stamped.add(e);
    }
    queue.putAll(stamped);
  }

  private LogEntry withStaticLabels(LogEntry e) {
    if (staticLabels.isEmpty()) {
      return e;
    }
    StringMap labels = merged.get(e.labels(), this::withStaticLabels);
    return LogEntry.of(e.timestampNanos(), labels, e.line(), e.metadata(), e.checkpoint());
  }

  private StringMap withStaticLabels(StringMap labels) {
    Map<String, String> union = new TreeMap<>(labels);
    union.putAll(staticLabels);
    return StringMap.of(union);
  }

  @Override
  public Optional<String> checkpoint(String key) {
    return committer.position(key);
  }

  @Override
  public boolean stopRequested() {
    return control.isStopping();
  }

  @Override
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return control.awaitStop(timeout);
  }
}
