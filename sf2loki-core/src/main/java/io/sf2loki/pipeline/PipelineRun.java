package io.sf2loki.pipeline;

import io.sf2loki.config.Durations;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.pipeline.egress.EgressGovernor;
import io.sf2loki.spi.Causes;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StopSignal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a {@link Pipeline}: starts the lane stages (two threads per lane) and one thread per
 * source, waits until the run ends (the lanes drained, the grace expired, or an abort) and tears
 * everything down before returning; threads stuck in I/O beyond the join timeout are abandoned,
 * never allowed to commit (invariant 1).
 */
final class PipelineRun {

  private static final Logger LOG = LoggerFactory.getLogger(PipelineRun.class);

  private final PipelineParts parts;
  private final PipelineSettings settings;
  private final Committer committer;
  private final EgressGovernor egress;
  private final RunControl control = new RunControl();
  private final Map<Source.Lane, LaneRuntime> lanes = new EnumMap<>(Source.Lane.class);

  /**
   * @param loaded the checkpoint document as loaded at run start
   */
  PipelineRun(PipelineParts parts, Map<String, String> loaded) {
    this.parts = parts;
    this.settings = parts.settings();
    this.egress =
        new EgressGovernor(
            settings.egress(),
            parts.environment().clock(),
            parts.environment().ticker(),
            parts.metrics().egress(),
            loaded);
    this.committer = new Committer(parts.store(), parts.fence(), parts.metrics(), loaded, egress);
    for (Source s : parts.sources()) {
      lanes
          .computeIfAbsent(
              s.lane(),
              lane -> new LaneRuntime(lane, settings.lane(lane), parts.environment().ticker()))
          .producers
          .incrementAndGet();
    }
  }

  /** Runs to the end; see {@link Pipeline#run}. */
  PipelineOutcome run(StopSignal stop) throws InterruptedException {
    List<Thread> workers = startWorkers();
    List<Thread> sources = startSources();
    Thread watcher = watch(stop);
    try {
      awaitEnd(workers.size());
    } catch (InterruptedException e) {
      control.abort();
      throw e;
    } finally {
      tearDown(workers, sources, watcher);
    }
    return control.outcome();
  }

  /** Two threads per lane, batching and delivery (see {@link BatchHandoff}); both count. */
  private List<Thread> startWorkers() {
    LaneShared shared =
        new LaneShared(
            parts.sink(),
            committer,
            control,
            parts.metrics(),
            parts.environment().ticker(),
            parts.environment().clock(),
            egress);
    List<Thread> threads = new ArrayList<>();
    for (LaneRuntime l : lanes.values()) {
      parts.metrics().attach(l.lane, l.queue);
      parts.metrics().watch(l.lane, l.progress);
      LaneConfig bounds = settings.lane(l.lane);
      Batcher batcher = new Batcher(bounds.maxEntries(), bounds.maxBytes(), bounds.flushInterval());
      threads.add(
          start(
              "sf2loki-lane-" + l.lane + "-batch",
              new LaneBatching(
                  l.lane,
                  l.queue,
                  batcher,
                  l.handoff,
                  l.progress,
                  shared,
                  adaptive(l.lane),
                  bounds.streamingLinger())));
      threads.add(
          start(
              "sf2loki-lane-" + l.lane + "-push",
              new LaneDelivery(
                  l.lane,
                  l.handoff,
                  l.progress,
                  shared,
                  parts.backoff(l.lane),
                  bounds.maxRetryAfter(),
                  parts.environment().threads(),
                  bounds.queueMaxEntries(),
                  commitInterval(l.lane))));
    }
    return threads;
  }

  /**
   * The streaming lane spaces its checkpoint writes; the bulk lane writes after each delivered
   * batch, so that a crash re-sends at most a page or a file part (docs/performance.md §7).
   */
  private Duration commitInterval(Source.Lane lane) {
    return lane == Source.Lane.STREAMING ? settings.streamingCommitInterval() : Duration.ZERO;
  }

  /**
   * Whether {@code lane} sends a partial batch as soon as it is idle ({@link LaneBatching}). The
   * streaming lane does: a live event is wanted in Loki now, and its batch interval is only an
   * upper bound. The bulk lane keeps full or interval-old batches: its entries are hours old
   * already, and at a drain's moderate rates sending on idle would split its batches into more,
   * smaller pushes for nothing.
   */
  private static boolean adaptive(Source.Lane lane) {
    return lane == Source.Lane.STREAMING;
  }

  private List<Thread> startSources() {
    List<Thread> threads = new ArrayList<>();
    for (Source source : parts.sources()) {
      LaneRuntime lane = lanes.get(source.lane());
      LaneSourceContext ctx =
          new LaneSourceContext(
              lane.queue,
              committer,
              control,
              parts.metrics(),
              settings.staticLabels(),
              parts.environment().clock());
      threads.add(start("sf2loki-source-" + source.name(), () -> runSource(source, ctx, lane)));
    }
    return threads;
  }

  private void runSource(Source source, LaneSourceContext ctx, LaneRuntime lane) {
    try {
      source.run(ctx);
    } catch (InterruptedException e) {
      if (!control.isAborted()) {
        LOG.warn("source {} was interrupted", source.name());
      }
    } catch (Throwable e) {
      // An Error too (a StackOverflowError, a class that failed to load): a source that died of one
      // must fail the run, never let its lane close as if it had finished.
      if (!control.isAborted()) {
        if (Causes.classified(e).isPresent()) {
          // expected (rejected credentials, a store refusing access): one line; the engine
          // classifies and counts it
          LOG.warn("source {} failed; stopping the run: {}", source.name(), Causes.chain(e));
          LOG.debug("the source's failure", e);
        } else {
          LOG.error("source {} failed; stopping the run", source.name(), e);
        }
        control.sourceFailed(new SourceFailedException(source.name(), e));
      }
    } finally {
      lane.producerDone();
    }
  }

  private Thread watch(StopSignal stop) {
    return start(
        "sf2loki-pipeline-stop",
        () -> {
          try {
            while (!stop.awaitStop(Duration.ofHours(1))) {
              // keep waiting
            }
            control.requestStop();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the run ended first
          }
        });
  }

  private void awaitEnd(int workers) throws InterruptedException {
    int running = workers;
    long deadline = Long.MAX_VALUE;
    while (running > 0) {
      if (control.isStopping() && deadline == Long.MAX_VALUE) {
        deadline = nanoTime() + settings.shutdownGrace().toNanos();
      }
      long wait = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - nanoTime();
      if (wait <= 0) {
        LOG.warn(
            "shutdown grace {} expired; abandoning what is not delivered",
            Durations.format(settings.shutdownGrace()));
        control.abort();
        return;
      }
      RunControl.Event event = control.nextEvent(wait);
      if (event == RunControl.Event.WORKER_DONE) {
        running--;
      } else if (event == RunControl.Event.ABORT) {
        return;
      }
    }
  }

  private void tearDown(List<Thread> workers, List<Thread> sources, Thread watcher)
      throws InterruptedException {
    if (control.isAborted()) {
      committer
          .close(); // Invariant 1: no commit starts after an abort; one in flight is interrupted
      lanes
          .values()
          .forEach(
              l -> {
                l.queue.abort();
                l.handoff.abort(); // the waiting batch goes back to its batching stage: abandoned
              });
      sources.forEach(Thread::interrupt);
      workers.forEach(Thread::interrupt);
    }
    join(workers);
    join(sources);
    committer.close();
    watcher.interrupt();
    lanes
        .values()
        .forEach(
            l -> {
              parts.metrics().detach(l.lane, l.queue);
              parts.metrics().unwatch(l.lane, l.progress);
            });
  }

  private void join(List<Thread> threads) throws InterruptedException {
    Duration timeout = settings.joinTimeout();
    long deadline = nanoTime() + timeout.toNanos();
    for (Thread t : threads) {
      long left = Math.max(1, (deadline - nanoTime()) / 1_000_000);
      t.join(left);
      if (t.isAlive()) {
        LOG.warn(
            "{} did not end within {}; leaving it behind", t.getName(), Durations.format(timeout));
      }
    }
  }

  private long nanoTime() {
    return parts.environment().ticker().nanoTime();
  }

  private Thread start(String name, Runnable body) {
    Thread t = parts.environment().threads().newThread(body);
    t.setName(name);
    t.start();
    return t;
  }
}
