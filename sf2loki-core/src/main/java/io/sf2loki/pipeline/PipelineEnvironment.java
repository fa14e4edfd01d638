package io.sf2loki.pipeline;

import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * What a composition root gives a pipeline: time and jitter, never taken from the system by the
 * pipeline itself, so tests control them.
 *
 * @param clock wall clock (ingest lag, the last-push gauge)
 * @param ticker monotonic clock (flush intervals, push durations, the grace deadline)
 * @param random jitter of the lanes' retry backoff; shared by the lanes' threads, so thread-safe
 */
public record PipelineEnvironment(Clock clock, Ticker ticker, RandomGenerator random) {

  public PipelineEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ticker, "ticker");
    Objects.requireNonNull(random, "random");
  }
}
