package io.sf2loki.engine;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.pipeline.PipelineEnvironment;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.random.RandomGenerator;

/**
 * What a composition root gives an engine: time, jitter, threads and the meter registry, never
 * taken from the system by the engine itself, so tests control them. The engine hands them on to
 * the pipeline of every term.
 *
 * @param clock wall clock
 * @param ticker monotonic clock for durations
 * @param random jitter of the lanes' retry backoff; shared by threads, so thread-safe
 * @param threads makes the engine's threads (each term's, the stop relay) and its pipelines';
 *     daemon threads, as {@link io.sf2loki.spi.NamedThreadFactory} makes them
 * @param metrics where engine, pipeline and sink metrics go
 */
public record EngineEnvironment(
    Clock clock,
    Ticker ticker,
    RandomGenerator random,
    ThreadFactory threads,
    MeterRegistry metrics) {

  public EngineEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ticker, "ticker");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(threads, "threads");
    Objects.requireNonNull(metrics, "metrics");
  }

  /** What each term's pipeline is given. */
  public PipelineEnvironment pipeline() {
    return new PipelineEnvironment(clock, ticker, random, threads);
  }
}
