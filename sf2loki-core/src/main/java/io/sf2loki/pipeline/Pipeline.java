package io.sf2loki.pipeline;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.EgressConfig;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.StoreException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leadership term's worth of ingest: runs the sources, moves their entries through two lanes
 * (streaming and bulk, each a bounded queue, a batching stage and a delivery stage with one push in
 * flight) to the sink, and commits checkpoints after delivery, fenced with the term (invariants 1,
 * 3, 4).
 *
 * <p>A pipeline is its {@link PipelineSettings} (an immutable value), its collaborators and the
 * {@link PipelineEnvironment} its composition root gives it; {@link #builder} is the way to make
 * one. {@link #run} blocks the calling thread until the run ends and returns a {@link
 * PipelineOutcome}; it owns its threads (one per source, two per lane) and ends them all before
 * returning (threads stuck in I/O beyond the join timeout are abandoned, never allowed to commit).
 * A pipeline runs once; build a new one per term.
 */
public final class Pipeline {

  private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

  private final PipelineParts parts;
  private final AtomicBoolean started = new AtomicBoolean();

  private Pipeline(PipelineParts parts) {
    this.parts = parts;
  }

  /**
   * A builder for a run of {@code sources} into {@code sink}, committing to {@code store} fenced by
   * {@code fence}, with the clock, ticker, jitter and threads of {@code environment}.
   */
  public static Builder builder(
      List<? extends Source> sources,
      Sink sink,
      CheckpointStore store,
      Fence fence,
      PipelineEnvironment environment) {
    return new Builder(sources, sink, store, fence, environment);
  }

  /** The settings this pipeline runs with. */
  public PipelineSettings settings() {
    return parts.settings();
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
      loaded = parts.store().loadAll();
    } catch (StoreException e) {
      return new PipelineOutcome.Failed(e);
    }
    PipelineOutcome outcome = new PipelineRun(parts, loaded).run(stop);
    LOG.info("pipeline run ended: {}", outcome);
    return outcome;
  }

  /**
   * Makes a {@link Pipeline}: {@link #settings} (or the shortcuts that derive them) over {@link
   * PipelineSettings#defaults()}, and the optional collaborators. Not kept by the pipeline it
   * builds.
   */
  public static final class Builder {
    private final List<Source> sources;
    private final Sink sink;
    private final CheckpointStore store;
    private final Fence fence;
    private final PipelineEnvironment environment;
    private PipelineSettings settings = PipelineSettings.defaults();
    private Optional<Backoff> backoff = Optional.empty();
    private PipelineMetrics metrics;

    private Builder(
        List<? extends Source> sources,
        Sink sink,
        CheckpointStore store,
        Fence fence,
        PipelineEnvironment environment) {
      this.sources = List.copyOf(sources);
      this.sink = Objects.requireNonNull(sink, "sink");
      this.store = Objects.requireNonNull(store, "store");
      this.fence = Objects.requireNonNull(fence, "fence");
      this.environment = Objects.requireNonNull(environment, "environment");
    }

    /** All settings at once. */
    public Builder settings(PipelineSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Batch, queue and retry bounds of every lane ({@link PipelineSettings#withLanes}). */
    public Builder lanes(LaneConfig bounds) {
      return settings(settings.withLanes(bounds));
    }

    /** Bounds of one lane of its own ({@link PipelineSettings#withLane}). */
    public Builder lane(Source.Lane lane, LaneConfig bounds) {
      return settings(settings.withLane(lane, bounds));
    }

    /** How long a stop may spend draining ({@link PipelineSettings#withShutdownGrace}). */
    public Builder shutdownGrace(Duration grace) {
      return settings(settings.withShutdownGrace(grace));
    }

    /** How long teardown waits for stuck threads ({@link PipelineSettings#withJoinTimeout}). */
    public Builder joinTimeout(Duration timeout) {
      return settings(settings.withJoinTimeout(timeout));
    }

    /**
     * The least time between the starts of the streaming lane's checkpoint writes ({@link
     * PipelineSettings#withStreamingCommitInterval}).
     */
    public Builder streamingCommitInterval(Duration interval) {
      return settings(settings.withStreamingCommitInterval(interval));
    }

    /** The daily byte budget and rate caps ({@link PipelineSettings#withEgress}). */
    public Builder egress(EgressConfig controls) {
      return settings(settings.withEgress(controls));
    }

    /** Labels on every real entry ({@link PipelineSettings#withStaticLabels}). */
    public Builder staticLabels(Map<String, String> labels) {
      return settings(settings.withStaticLabels(labels));
    }

    /**
     * The lanes' wait between retries of the same batch, instead of the jittered exponential
     * backoff their bounds describe (tests pin it); Retry-After stays capped by the bounds.
     */
    public Builder backoff(Backoff backoff) {
      this.backoff = Optional.of(backoff);
      return this;
    }

    /** The process-wide pipeline metrics (one per registry, shared by every run). */
    public Builder metrics(PipelineMetrics metrics) {
      this.metrics = Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /** Builds the pipeline; metrics default to a private registry when none was given. */
    public Pipeline build() {
      PipelineMetrics m =
          metrics != null ? metrics : new PipelineMetrics(new SimpleMeterRegistry());
      return new Pipeline(
          new PipelineParts(settings, sources, sink, store, fence, m, environment, backoff));
    }
  }
}
