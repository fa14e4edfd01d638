package io.sf2loki.state.file;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.FakeTerm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Commit latency and throughput of the file store with fsync, as recorded in docs/state.md. Run:
 * {@code java -cp <test classpath> io.sf2loki.state.file.FileStoreBenchmarkMain [dir] [commits]}.
 */
public final class FileStoreBenchmarkMain {

  private FileStoreBenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("sf2loki-bench");
    int commits = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    StoreEnvironment env =
        new StoreEnvironment(false, Clock.systemUTC(), new SimpleMeterRegistry());
    try (FileCheckpointStore store =
        new FileCheckpointStore(
            FileStoreConfig.of(dir.resolve("state.json")), env, Ticker.SYSTEM)) {
      Map<String, String> keys = new LinkedHashMap<>();
      for (int i = 0; i < 40; i++) {
        keys.put(
            "eventlogfile:Type" + i,
            "{\"ids\": [], \"last_created\": \"2026-07-01T00:00:00.000+0000\"}");
      }
      store.commit(keys, new FakeTerm("bench", 1));
      long[] nanos = new long[commits];
      long start = System.nanoTime();
      for (int i = 0; i < commits; i++) {
        long t = System.nanoTime();
        store.commit(
            Map.of(
                "pubsub:/event/LoginEventStream",
                "v" + i,
                "egress:budget",
                "{\"bytes\": " + i + "}"),
            new FakeTerm("bench", 1));
        nanos[i] = System.nanoTime() - t;
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      Arrays.sort(nanos);
      System.out.printf(
          "commits=%d doc_bytes=%d commits_per_s=%.0f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f%n",
          commits,
          Files.size(dir.resolve("state.json")),
          commits / seconds,
          nanos[commits / 2] / 1e6,
          nanos[(int) (commits * 0.99)] / 1e6,
          nanos[commits - 1] / 1e6);
    }
  }
}
