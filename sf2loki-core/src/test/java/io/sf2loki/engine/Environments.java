package io.sf2loki.engine;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.util.Random;

/** Engine environments for tests (shared with the daemon's tests through core's test-jar). */
public final class Environments {

  private Environments() {}

  /** The system clock and ticker, seeded jitter, daemon threads, {@code metrics}. */
  public static EngineEnvironment engine(MeterRegistry metrics) {
    return engine(Clock.systemUTC(), metrics);
  }

  /** {@code clock}, the system ticker, seeded jitter, daemon threads, {@code metrics}. */
  public static EngineEnvironment engine(Clock clock, MeterRegistry metrics) {
    return new EngineEnvironment(
        clock, Ticker.SYSTEM, new Random(1), new NamedThreadFactory("test"), metrics);
  }
}
