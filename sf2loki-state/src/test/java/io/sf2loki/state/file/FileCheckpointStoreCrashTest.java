package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM commits in a loop and is killed with SIGKILL at random moments, many times. After
 * every kill the document parses, equals one complete committed state, and is not older than the
 * last state the child acknowledged; the next instance can take the lock at once.
 */
class FileCheckpointStoreCrashTest {

  private static final int KILLS = 6;

  @TempDir Path dir;

  @Test
  void sigkillAtRandomMomentsAlwaysLeavesACompleteCommittedState() throws Exception {
    Path path = dir.resolve("state.json");
    Random random = new Random(42);
    long lastAcknowledged = 0;
    for (int i = 0; i < KILLS; i++) {
      long acknowledged = runAndKill(path, 20 + random.nextInt(300));
      lastAcknowledged = Math.max(lastAcknowledged, acknowledged);
      Map<String, String> doc = reopen(path);
      long n = Long.parseLong(doc.get("n"));
      assertThat(doc).isEqualTo(CrashingWriterMain.state(n));
      assertThat(n).isGreaterThanOrEqualTo(lastAcknowledged);
      lastAcknowledged = n;
    }
    assertThat(lastAcknowledged).isGreaterThan(KILLS);
  }

  private static Map<String, String> reopen(Path path) {
    StoreEnvironment env = new StoreEnvironment(true, Clock.systemUTC(), new SimpleMeterRegistry());
    try (FileCheckpointStore store =
        new FileCheckpointStore(FileStoreConfig.of(path), env, Ticker.SYSTEM)) {
      return store.loadAll();
    }
  }

  /** Starts the writer, waits for its first commit, lets it run, kills it; returns its last ack. */
  private static long runAndKill(Path path, int runMillis) throws Exception {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                CrashingWriterMain.class.getName(),
                path.toString())
            .redirectError(path.resolveSibling("child.err").toFile())
            .start();
    AtomicLong last = new AtomicLong();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                  if (!line.startsWith("committed ")) {
                    continue; // logging
                  }
                  last.set(Long.parseLong(line.substring("committed ".length()).trim()));
                  synchronized (last) {
                    last.notifyAll();
                  }
                }
              } catch (java.io.IOException | NumberFormatException e) {
                // the child died mid-line: the last complete number stands
              }
            });
    reader.start();
    synchronized (last) {
      long deadline = System.nanoTime() + TestTiming.seconds(30).toNanos();
      while (last.get() == 0 && child.isAlive() && System.nanoTime() < deadline) {
        last.wait(100);
      }
    }
    assertThat(last.get()).as("child committed at least once").isPositive();
    Thread.sleep(runMillis); // the kill moment is the random variable under test
    child.destroyForcibly(); // SIGKILL
    assertThat(child.waitFor(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    reader.join(TestTiming.seconds(5).toMillis());
    return last.get();
  }
}
