package io.sf2loki.pipeline;

import io.sf2loki.config.LaneConfig;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leadership term's worth of ingest: runs the sources, moves their entries through two lanes
 * (streaming and bulk, each a bounded queue, a batching stage and a delivery stage with one push in
 * flight) to the sink, and commits checkpoints after delivery, fenced with the term (invariants 1,
 * 3, 4).
 *
 * <p>{@link #run} blocks the calling thread until the run ends and returns a {@link
 * PipelineOutcome}; it owns its threads (one per source, two per lane) and ends them all before
 * returning (threads stuck in I/O beyond the join timeout are abandoned, never allowed to commit).
 * A pipeline runs once; build a new one per term.
 */
public final class Pipeline {

  private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

  private final Builder cfg;
  private final AtomicBoolean started = new AtomicBoolean();

  private Pipeline(Builder builder) {
    this.cfg = builder;
  }

  /** A builder for a run of {@code sources} into {@code sink}, committing to {@code store}. */
  public static Builder builder(
      List<? extends Source> sources, Sink sink, CheckpointStore store, Fence fence) {
    return new Builder(sources, sink, store, fence);
  }

  private final class LaneRuntime {
    final Source.Lane lane;
    final LaneQueue queue;
    final BatchHandoff handoff = new BatchHandoff();
    final AtomicInteger producers = new AtomicInteger();

    LaneRuntime(Source.Lane lane) {
      this.lane = lane;
      LaneConfig bounds = cfg.lane(lane);
      this.queue = new LaneQueue(bounds.queueMaxEntries(), bounds.queueMaxBytes());
    }

    void producerDone() {
      if (producers.decrementAndGet() == 0) {
        queue.close();
      }
    }
  }

  /**
   * Runs until every source has ended and its lane drained, or {@code stop} is requested (drain
   * within the grace period), or leadership is lost, or a failure ends the run.
   *
   * @throws InterruptedException when the calling thread is interrupted; the run is aborted first
   * @throws IllegalStateException when called a second time
   */
  public PipelineOutcome run(StopSignal stop) throws InterruptedException {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("a pipeline runs once; build a new one per term");
    }
    Map<String, String> loaded;
    try {
      loaded = cfg.store.loadAll();
    } catch (StoreException e) {
      return new PipelineOutcome.Failed(e);
    }
    RunControl control = new RunControl();
    Committer committer = new Committer(cfg.store, cfg.fence, cfg.metrics, loaded);
    Map<Source.Lane, LaneRuntime> lanes = new EnumMap<>(Source.Lane.class);
    for (Source s : cfg.sources) {
      lanes.computeIfAbsent(s.lane(), LaneRuntime::new).producers.incrementAndGet();
    }
    List<Thread> workers = startWorkers(lanes, committer, control);
    List<Thread> sources = startSources(lanes, committer, control);
    Thread watcher = watch(stop, control);
    try {
      awaitEnd(control, workers.size());
    } catch (InterruptedException e) {
      control.abort();
      throw e;
    } finally {
      tearDown(control, committer, lanes, workers, sources, watcher);
    }
    PipelineOutcome outcome = control.outcome();
    LOG.info("pipeline run ended: {}", outcome);
    return outcome;
  }

  /** Two threads per lane, batching and delivery (see {@link BatchHandoff}); both count. */
  private List<Thread> startWorkers(
      Map<Source.Lane, LaneRuntime> lanes, Committer committer, RunControl control) {
    LaneShared shared =
        new LaneShared(
            cfg.sink,
            committer,
            control,
            cfg.metrics,
            cfg.laneBackoff,
            cfg.maxRetryAfter,
            cfg.ticker,
            cfg.clock);
    List<Thread> threads = new ArrayList<>();
    for (LaneRuntime l : lanes.values()) {
      cfg.metrics.attach(l.lane, l.queue);
      LaneConfig bounds = cfg.lane(l.lane);
      Batcher batcher = new Batcher(bounds.maxEntries(), bounds.maxBytes(), bounds.flushInterval());
      threads.add(
          start(
              "sf2loki-lane-" + l.lane + "-batch",
              new LaneBatching(l.lane, l.queue, batcher, l.handoff, shared)));
      threads.add(
          start("sf2loki-lane-" + l.lane + "-push", new LaneDelivery(l.lane, l.handoff, shared)));
    }
    return threads;
  }

  private List<Thread> startSources(
      Map<Source.Lane, LaneRuntime> lanes, Committer committer, RunControl control) {
    List<Thread> threads = new ArrayList<>();
    for (Source source : cfg.sources) {
      LaneRuntime lane = lanes.get(source.lane());
      LaneSourceContext ctx =
          new LaneSourceContext(
              lane.queue, committer, control, cfg.metrics, cfg.staticLabels, cfg.clock);
      threads.add(
          start("sf2loki-source-" + source.name(), () -> runSource(source, ctx, lane, control)));
    }
    return threads;
  }

  private static void runSource(
      Source source, LaneSourceContext ctx, LaneRuntime lane, RunControl control) {
    try {
      source.run(ctx);
    } catch (InterruptedException e) {
      if (!control.isAborted()) {
        LOG.warn("source {} was interrupted", source.name());
      }
    } catch (Exception e) {
      if (!control.isAborted()) {
        LOG.error("source {} failed; stopping the run", source.name(), e);
        control.sourceFailed(new SourceFailedException(source.name(), e));
      }
    } finally {
      lane.producerDone();
    }
  }

  private static Thread watch(StopSignal stop, RunControl control) {
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

  private void awaitEnd(RunControl control, int workers) throws InterruptedException {
    int running = workers;
    long deadline = Long.MAX_VALUE;
    while (running > 0) {
      if (control.isStopping() && deadline == Long.MAX_VALUE) {
        deadline = cfg.ticker.nanoTime() + cfg.shutdownGrace.toNanos();
      }
      long wait = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - cfg.ticker.nanoTime();
      if (wait <= 0) {
        LOG.warn("shutdown grace {} expired; abandoning what is not delivered", cfg.shutdownGrace);
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

  private void tearDown(
      RunControl control,
      Committer committer,
      Map<Source.Lane, LaneRuntime> lanes,
      List<Thread> workers,
      List<Thread> sources,
      Thread watcher)
      throws InterruptedException {
    if (control.isAborted()) {
      committer.close(); // Invariant 1: nothing commits after an abort
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
    lanes.values().forEach(l -> cfg.metrics.detach(l.lane, l.queue));
  }

  private void join(List<Thread> threads) throws InterruptedException {
    long deadline = cfg.ticker.nanoTime() + cfg.joinTimeout.toNanos();
    for (Thread t : threads) {
      long left = Math.max(1, (deadline - cfg.ticker.nanoTime()) / 1_000_000);
      t.join(left);
      if (t.isAlive()) {
        LOG.warn("{} did not end within {}; leaving it behind", t.getName(), cfg.joinTimeout);
      }
    }
  }

  private static Thread start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Assembles a {@link Pipeline}. */
  public static final class Builder {
    private final List<Source> sources;
    private final Sink sink;
    private final CheckpointStore store;
    private final Fence fence;
    private LaneConfig lanes = LaneConfig.defaults();
    private final Map<Source.Lane, LaneConfig> laneOverrides =
        new java.util.EnumMap<>(Source.Lane.class);
    private Duration shutdownGrace = Duration.ofSeconds(25);
    private Duration joinTimeout = Duration.ofSeconds(35);
    // the documented defaults, defined once (LaneConfig.defaults(), pinned to reference.conf)
    private Backoff laneBackoff =
        Backoff.exponential(
            lanes.retryMinBackoff(), lanes.retryMaxBackoff(), RandomGenerator.getDefault());
    private Duration maxRetryAfter = lanes.maxRetryAfter();
    private Map<String, String> staticLabels = Map.of();
    private PipelineMetrics metrics;
    private Clock clock = Clock.systemUTC();
    private Ticker ticker = Ticker.SYSTEM;

    private Builder(List<? extends Source> sources, Sink sink, CheckpointStore store, Fence fence) {
      this.sources = List.copyOf(sources);
      this.sink = Objects.requireNonNull(sink, "sink");
      this.store = Objects.requireNonNull(store, "store");
      this.fence = Objects.requireNonNull(fence, "fence");
    }

    /**
     * Batch and queue bounds of both lanes ({@code sink.loki.batch}); the retry keys are applied
     * with {@link #retry(LaneConfig, RandomGenerator)}.
     */
    public Builder lanes(LaneConfig lanes) {
      this.lanes = Objects.requireNonNull(lanes, "lanes");
      return this;
    }

    /** Batch and queue bounds of one lane, over {@link #lanes} (the streaming lane's own, say). */
    public Builder lane(Source.Lane lane, LaneConfig bounds) {
      laneOverrides.put(Objects.requireNonNull(lane, "lane"), Objects.requireNonNull(bounds));
      return this;
    }

    LaneConfig lane(Source.Lane lane) {
      return laneOverrides.getOrDefault(lane, lanes);
    }

    /** How long a stop may spend draining ({@code service.shutdown_grace}). */
    public Builder shutdownGrace(Duration grace) {
      this.shutdownGrace = Objects.requireNonNull(grace, "grace");
      return this;
    }

    /** How long teardown waits for threads stuck in I/O after an abort (default 35s). */
    public Builder joinTimeout(Duration timeout) {
      this.joinTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** The lanes' wait between retries of the same batch, and the Retry-After cap. */
    public Builder retry(Backoff laneBackoff, Duration maxRetryAfter) {
      this.laneBackoff = Objects.requireNonNull(laneBackoff, "laneBackoff");
      this.maxRetryAfter = Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
      return this;
    }

    /** The lanes' retry bounds from {@code config} ({@code sink.loki.retry.lane_*}), jittered. */
    public Builder retry(LaneConfig config, RandomGenerator random) {
      return retry(
          Backoff.exponential(config.retryMinBackoff(), config.retryMaxBackoff(), random),
          config.maxRetryAfter());
    }

    /** Labels stamped over every real entry's own (job, service_name, operator labels). */
    public Builder staticLabels(Map<String, String> labels) {
      this.staticLabels = Map.copyOf(labels);
      return this;
    }

    /** The process-wide pipeline metrics (one per registry, shared by every run). */
    public Builder metrics(PipelineMetrics metrics) {
      this.metrics = Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /** Wall clock for ingest lag and the last-push gauge. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Monotonic time for flush intervals, push durations and the grace deadline. */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** Builds the pipeline; metrics default to a private registry when none was given. */
    public Pipeline build() {
      if (metrics == null) {
        metrics =
            new PipelineMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
      }
      return new Pipeline(this);
    }
  }
}
