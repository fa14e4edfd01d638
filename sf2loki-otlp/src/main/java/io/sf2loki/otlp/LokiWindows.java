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
  private final OtlpMetrics metrics;

  LokiWindows(
      OtlpSinkConfig.LokiEndpoint loki,
      LogRecordMapping mapping,
      OtlpMetrics metrics,
      MeterRegistry registry,
      Clock clock,
      Sleeper sleeper) {
    this.metrics = metrics;
    this.windows =
        HttpSinkSupport.timeWindows(
            loki.windows(),
            new LokiStreams(mapping, loki.indexAttributes()),
            registry,
            clock,
            sleeper);
  }

  /**
   * Plans {@code pending} (the batch's entries not resolved yet) and exports it with {@code sink}'s
   * encoder and transport; adds to {@code resolved} what it delivered or dropped when it fails
   * part-way.
   *
   * @param observedNanos the records' {@code observed_time_unix_nano}: this push's time
   */
  void push(
      Batch batch,
      List<LogEntry> pending,
      Set<LogEntry> resolved,
      OtlpSink sink,
      long observedNanos)
      throws RetryableSinkException, InterruptedException {
    windows.push(batch, pending, resolved, new Export(sink, observedNanos));
  }

  /**
   * One export of entries as the Loki planning placed them; the planning bisects, drops and
   * dead-letters (a partial success, which a Loki does not answer, is bisected like a 400).
   */
  private final class Export implements HttpSinkSupport.Exporter {
    private final OtlpSink sink;
    private final long observedNanos;

    Export(OtlpSink sink, long observedNanos) {
      this.sink = sink;
      this.observedNanos = observedNanos;
    }

    @Override
    public HttpSinkSupport.ExportAnswer export(List<LogEntry> entries)
        throws RetryableSinkException, InterruptedException {
      OtlpEncoder.Body body = sink.encode(entries, observedNanos);
      OtlpHttpTransport.Response r = sink.attempt(body);
      int s = r.status();
      if (s >= 300) {
        String reason = s == 413 ? "oversized_413" : "bad_request";
        return new HttpSinkSupport.ExportAnswer(
            s, false, reason, OtlpAnswers.errorText(r.contentType(), r.body()));
      }
      OtlpAnswers.Outcome outcome = OtlpAnswers.outcome(r.contentType(), r.body());
      if (outcome.rejected() <= 0) {
        metrics.bytesPushed(body.bytes().length);
        return new HttpSinkSupport.ExportAnswer(s, true, "", "");
      }
      metrics.rejected(Math.min(outcome.rejected(), entries.size()));
      return new HttpSinkSupport.ExportAnswer(s, false, "partial_success", outcome.message());
    }

    @Override
    public void deadLetter(LogEntry e, String reason, int status, String error) {
      sink.deadLetter(e, reason, status, error.isEmpty() ? "(no message)" : error);
    }

    @Override
    public String target() {
      return sink.target();
    }
  }
}
