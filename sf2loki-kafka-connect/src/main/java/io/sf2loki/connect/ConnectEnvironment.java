package io.sf2loki.connect;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.EngineEnvironment;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.util.Map;
import java.util.Random;

/**
 * The connectors' composition root: the one place of this module that takes time, jitter, threads
 * and the environment from the system (Connect instantiates connectors and tasks by reflection, so
 * they cannot be handed these). Tests construct the connectors' parts with their own.
 */
final class ConnectEnvironment {

  private ConnectEnvironment() {}

  /** The worker's environment variables, for {@code ${NAME}} and {@code SF2LOKI_} overrides. */
  static Map<String, String> variables() {
    return System.getenv();
  }

  /** How a task waits on its egress rate caps. */
  static Sleeper sleeper() {
    return Sleeper.SYSTEM;
  }

  /**
   * What a task's sources run with. The meters stay in the task: Connect exports its own metrics,
   * and the sources' log lines carry what they count.
   */
  static EngineEnvironment forTask(String name) {
    MeterRegistry registry = new SimpleMeterRegistry();
    return new EngineEnvironment(
        Clock.systemUTC(),
        Ticker.SYSTEM,
        new Random(),
        new NamedThreadFactory("sf2loki-connect-" + name),
        registry);
  }
}
