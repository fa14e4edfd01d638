package io.sf2loki.loki;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.loki.HttpSinkSupport.ExportAnswer;
import io.sf2loki.loki.HttpSinkSupport.Exporter;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.RetryableSinkException;
import java.time.Clock;
import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Loki sink's time-window handling for another sink whose requests reach a Loki (the OTLP sink
 * exporting to Loki's {@code /otlp/v1/logs}): each batch is planned by a {@link WindowPlanner} over
 * the streams Loki will make of the entries ({@link StreamKey}) and delivered by a {@link
 * BatchPush}, with its lessons from Loki's 400s and its one-stream pushes, through the other sink's
 * {@link Exporter}. Thread-safe: the lanes push concurrently.
 */
final class WindowedExport {

  // A batch's first plan, kept while the batch is retried (its view of the streams before it);
  // bounded: a batch abandoned at shutdown is never retried.
  private static final int MAX_RETRIED = 16;

  private final WindowPlanner planner;
  private final TimeWindowConfig config;
  private final String section;
  private final Clock clock;
  private final Sleeper sleeper;
  private final MeterRegistry registry;
  private final AtomicReference<Instant> lastHoldWarning = new AtomicReference<>(Instant.MIN);
  private final Map<Batch, WindowPlan> firstPlans =
      Collections.synchronizedMap(new IdentityHashMap<>());

  WindowedExport(
      TimeWindowConfig config,
      String section,
      StreamKey streams,
      MeterRegistry registry,
      Clock clock,
      Sleeper sleeper) {
    this.config = config;
    this.section = section;
    this.planner = new WindowPlanner(config, streams, new StreamNewest(), PlacementLedger.NONE);
    this.registry = registry;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /**
   * Plans and delivers {@code pending}, the entries of {@code batch} not yet resolved; adds to
   * {@code resolved} what it delivered or dropped when it fails part-way.
   */
  void push(Batch batch, List<LogEntry> pending, Set<LogEntry> resolved, Exporter exporter)
      throws RetryableSinkException, InterruptedException {
    if (pending.isEmpty()) {
      firstPlans.remove(batch);
      return;
    }
    Instant now = clock.instant();
    WindowPlan first = firstPlans.get(batch);
    WindowPlan plan;
    if (first == null) {
      plan = planner.plan(pending, now);
      first = plan;
    } else {
      plan = planner.replan(pending, first, now);
    }
    try {
      new BatchPush<>(new Parts(exporter), resolved, first).run(plan, Optional.empty());
    } catch (RetryableSinkException | InterruptedException | RuntimeException e) {
      synchronized (firstPlans) {
        if (firstPlans.size() >= MAX_RETRIED) {
          firstPlans.clear();
        }
        firstPlans.put(batch, first);
      }
      throw e;
    }
    firstPlans.remove(batch);
  }

  /** The Loki sink's parts over one push's exporter: the body is the entries themselves. */
  private final class Parts extends PushParts<List<LogEntry>> {
    private final Exporter exporter;

    Parts(Exporter exporter) {
      super(planner, clock, config, section, sleeper, registry, lastHoldWarning);
      this.exporter = exporter;
    }

    @Override
    List<LogEntry> encode(List<LogEntry> entries) {
      return entries;
    }

    @Override
    Answer send(List<LogEntry> entries) throws RetryableSinkException, InterruptedException {
      ExportAnswer a = exporter.export(entries);
      return new Answer(a.status(), a.accepted(), a.dropReason(), a.message());
    }

    @Override
    void accepted(List<LogEntry> body) {
      // the exporter counted the bytes of what it sent
    }

    @Override
    String target() {
      return exporter.target();
    }

    @Override
    void deadLetter(LogEntry e, String reason, int status, String error) {
      exporter.deadLetter(e, reason, status, error);
    }
  }
}
