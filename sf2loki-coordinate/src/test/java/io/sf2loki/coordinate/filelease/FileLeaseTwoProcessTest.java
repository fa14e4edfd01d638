package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.testkit.TestTiming;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVM processes ({@link FileLeaseProcessMain}) share one lease file and one real state file on
 * real time. About 10 s per test.
 */
class FileLeaseTwoProcessTest {

  /**
   * A standby notices expiry within one renew interval; the rest is JVM and scheduling slack
   * (scaled).
   */
  private static final Duration TAKEOVER =
      FileLeaseProcessMain.TTL.plus(FileLeaseProcessMain.RENEW).plus(TestTiming.millis(2_500));

  @TempDir Path fallback;
  private Path dir;
  private final List<Child> children = new ArrayList<>();
  private FencedStore observer;

  @BeforeEach
  void setUp() throws java.io.IOException {
    // tmpfs when there is one: on a loaded disk a claim's two fsyncs can outlast the verify pause,
    // the claim is then abandoned and the takeover bound measures the disk, not the coordinator
    Path shm = Path.of("/dev/shm");
    dir =
        java.nio.file.Files.isDirectory(shm) && java.nio.file.Files.isWritable(shm)
            ? java.nio.file.Files.createTempDirectory(shm, "sf2loki-lease-")
            : fallback;
    observer = StoreKind.fileStore(dir.resolve("state.json"));
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    for (Child c : children) {
      c.process.destroyForcibly();
      c.process.waitFor(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
    }
    observer.close();
    if (!dir.equals(fallback)) {
      try (var files = java.nio.file.Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (java.io.IOException e) {
        // best effort: tmpfs is cleared on reboot
      }
    }
  }

  @Test
  void killedLeaderIsReplacedWithinTtlAndItsEpochIsFencedOut() throws Exception {
    Child a = start("a");
    long aEpoch = a.awaitAcquired(TestTiming.seconds(20));
    Child b = start("b");
    await().atMost(TestTiming.seconds(10)).until(() -> a.commits(aEpoch) >= 5);
    await().atMost(TestTiming.seconds(10)).until(() -> b.said("started"));

    a.process.destroyForcibly(); // SIGKILL: no release, no final commit
    assertThat(a.process.waitFor(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();
    long killedAt = System.nanoTime();
    long bEpoch = b.awaitAcquired(TAKEOVER);
    Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);

    assertThat(bEpoch).isGreaterThan(aEpoch);
    assertThat(takeover).isLessThan(TAKEOVER);
    await().atMost(TestTiming.seconds(5)).until(() -> b.commits(bEpoch) >= 1);
    assertOnlySuccessorWritesFromNowOn(b, bEpoch);
  }

  @Test
  void frozenLeaderIsReplacedAndIsFencedWhenItWakes() throws Exception {
    Child a = start("a");
    long aEpoch = a.awaitAcquired(TestTiming.seconds(20));
    Child b = start("b");
    await().atMost(TestTiming.seconds(10)).until(() -> a.commits(aEpoch) >= 5);
    await().atMost(TestTiming.seconds(10)).until(() -> b.said("started"));

    signal(a, "STOP"); // a GC pause or a frozen VM: the process keeps its term but stops running
    long bEpoch = b.awaitAcquired(TAKEOVER);
    int aCommitsBeforeWaking = a.commits(aEpoch);
    // a may be frozen inside a commit, holding the state file's sidecar lock; b's commits wait for
    // it, so that in-flight write lands before b's first commit, never after
    signal(a, "CONT");

    await().atMost(TestTiming.seconds(10)).until(() -> a.said("lost " + aEpoch));
    await().atMost(TestTiming.seconds(15)).until(() -> b.commits(bEpoch) >= 1);
    assertThat(bEpoch).isGreaterThan(aEpoch);
    assertThat(a.commits(aEpoch)).isLessThanOrEqualTo(aCommitsBeforeWaking + 1);
    assertThat(a.said("acquired " + bEpoch)).isFalse();
    assertOnlySuccessorWritesFromNowOn(b, bEpoch);
  }

  /** Over further commits by the successor, the document never shows an older writer or epoch. */
  private void assertOnlySuccessorWritesFromNowOn(Child successor, long epoch) {
    int target = successor.commits(epoch) + 10;
    List<String> seen = new ArrayList<>();
    await()
        .atMost(TestTiming.seconds(10))
        .pollInterval(Duration.ofMillis(10))
        .until(
            () -> {
              Map<String, String> doc = observer.loadAll();
              seen.add(doc.get("__fence_epoch__") + " " + doc.get("writer"));
              return successor.commits(epoch) >= target;
            });
    assertThat(seen).allSatisfy(s -> assertThat(s).startsWith(epoch + " b:" + epoch + ":"));
    assertThat(observer.persistedEpoch()).hasValue(epoch);
  }

  private Child start(String name) throws IOException {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                TestTiming.jvmArgument(),
                "-cp",
                System.getProperty("java.class.path"),
                FileLeaseProcessMain.class.getName(),
                dir.resolve("leader.lease").toString(),
                dir.resolve("state.json").toString(),
                name)
            .redirectError(dir.resolve(name + ".err").toFile())
            .start();
    Child c = new Child(p);
    children.add(c);
    return c;
  }

  private static void signal(Child c, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(c.process.pid())).start();
    assertThat(kill.waitFor(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  /** A child process and the lines it printed. */
  private static final class Child {
    final Process process;
    final List<String> lines = new CopyOnWriteArrayList<>();

    Child(Process process) {
      this.process = process;
      Thread reader = new Thread(this::read, "child-" + process.pid());
      reader.setDaemon(true);
      reader.start();
    }

    private void read() {
      try (BufferedReader r =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("reader: " + e);
      }
    }

    boolean said(String line) {
      return lines.contains(line);
    }

    long awaitAcquired(Duration within) {
      await()
          .atMost(within)
          .pollInterval(Duration.ofMillis(10))
          .until(() -> lines.stream().anyMatch(l -> l.startsWith("acquired ")));
      String line = lines.stream().filter(l -> l.startsWith("acquired ")).findFirst().orElseThrow();
      return Long.parseLong(line.substring("acquired ".length()));
    }

    int commits(long epoch) {
      return (int) lines.stream().filter(l -> l.startsWith("committed " + epoch + " ")).count();
    }
  }
}
