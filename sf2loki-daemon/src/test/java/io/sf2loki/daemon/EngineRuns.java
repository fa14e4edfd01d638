package io.sf2loki.daemon;

import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.spi.StopTrigger;
import java.util.concurrent.CompletableFuture;

/** Runs an engine on its own thread, as the daemon's main thread would. */
public final class EngineRuns {

  private EngineRuns() {}

  /**
   * Runs {@code engine} until {@code stop} on a thread of its own; the future holds the outcome.
   */
  public static CompletableFuture<EngineOutcome> runAsync(Engine engine, StopTrigger stop) {
    CompletableFuture<EngineOutcome> future = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                future.complete(engine.run(stop));
              } catch (Exception e) {
                future.completeExceptionally(e);
              }
            },
            "engine-under-test");
    t.start();
    return future;
  }
}
