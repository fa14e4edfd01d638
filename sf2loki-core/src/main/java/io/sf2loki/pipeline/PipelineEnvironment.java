package io.sf2loki.pipeline;

import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.random.RandomGenerator;

/**
 * What a composition root gives a pipeline: time, jitter and threads, never taken from the system
 * by the pipeline itself, so tests control them.
 *
 * @param clock wall clock (ingest lag, the last-push gauge)
 * @param ticker monotonic clock (flush intervals, push durations, the grace deadline)
 * @param random jitter of the lanes' retry backoff; shared by the lanes' threads, so thread-safe
 * @param threads makes the run's threads (one per source, two per lane, a stop watcher), which the
 *     pipeline names after their role; daemon threads, as {@link io.sf2loki.spi.NamedThreadFactory}
 *     makes them
 */
public record PipelineEnvironment(
    Clock clock, Ticker ticker, RandomGenerator random, ThreadFactory threads) {

  public PipelineEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ticker, "ticker");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(threads, "threads");
  }
}
