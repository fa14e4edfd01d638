package io.sf2loki.otlp;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.loki.HttpSinkSupport;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.RetryableSinkException;
import java.time.Clock;
import java.util.List;
import java.util.Set;

/**
 * Planning against the time windows of the Loki behind the endpoint ({@code sink.otlp.loki}): the
 * Loki sink's planner, late-data policies and lessons ({@link HttpSinkSupport#timeWindows}) over
 * the streams Loki makes of the records ({@link LokiStreams}). The sink hands each push's pending
 * entries here instead of exporting them as they are. Thread-safe.
 */
final class LokiWindows {

  private final HttpSinkSupport.TimeWindows windows;

  LokiWindows(
      OtlpSinkConfig.LokiEndpoint loki,
      LogRecordMapping mapping,
      MeterRegistry registry,
      Clock clock,
      Sleeper sleeper) {
    this.windows =
        HttpSinkSupport.timeWindows(
            loki.windows(),
            new LokiStreams(mapping, loki.indexAttributes()),
            registry,
            clock,
            sleeper);
  }

  /**
   * Plans {@code pending} (the batch's entries not resolved yet) and exports it through {@code
   * exporter}; adds to {@code resolved} what it delivered or dropped when it fails part-way.
   */
  void push(
      Batch batch,
      List<LogEntry> pending,
      Set<LogEntry> resolved,
      HttpSinkSupport.Exporter exporter)
      throws RetryableSinkException, InterruptedException {
    windows.push(batch, pending, resolved, exporter);
  }
}
