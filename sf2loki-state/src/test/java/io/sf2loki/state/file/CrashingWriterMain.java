package io.sf2loki.state.file;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * Child JVM of {@link FileCheckpointStoreCrashTest}: commits numbered states in a loop, printing
 * each number once its commit returned, until it is killed.
 */
public final class CrashingWriterMain {

  private CrashingWriterMain() {}

  /** The complete document state number {@code n} commits. */
  static Map<String, String> state(long n) {
    return Map.of("n", Long.toString(n), "payload", ("payload-" + n + "-").repeat(200));
  }

  public static void main(String[] args) {
    StoreEnvironment env = new StoreEnvironment(true, Clock.systemUTC(), new SimpleMeterRegistry());
    try (FileCheckpointStore store =
        new FileCheckpointStore(FileStoreConfig.of(Path.of(args[0])), env, Ticker.SYSTEM)) {
      long n = store.load("n").map(Long::parseLong).orElse(0L);
      while (true) {
        n++;
        store.commit(state(n), Fence.NONE);
        System.out.println("committed " + n);
        System.out.flush();
      }
    }
  }
}
