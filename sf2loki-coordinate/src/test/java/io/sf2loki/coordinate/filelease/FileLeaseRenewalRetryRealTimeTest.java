package io.sf2loki.coordinate.filelease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Term;
import io.sf2loki.spi.Ticker;
import io.sf2loki.tck.RecordingLeadershipListener;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retry of a failed renewal on real time: a real sleep wakes a little after its deadline, which
 * simulated time never does. The timings keep the defaults' proportions (ttl 3 × renew_interval,
 * io_timeout derived): ttl 1.2 s and renew_interval 400 ms give an io_timeout of 200 ms and a last
 * chance 800 ms after each good renewal, so a renewal that fails at 400 ms has 400 ms to retry in,
 * exactly one renew interval.
 */
class FileLeaseRenewalRetryRealTimeTest {

  private static final Duration TTL = Duration.ofMillis(1200);
  private static final Duration RENEW = Duration.ofMillis(400);

  @TempDir Path fallback;
  private Path dir;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RecordingLeadershipListener listener = new RecordingLeadershipListener();
  private final StopTrigger stop = new StopTrigger();
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private Thread runner;
  private FileLeaseCoordinator coordinator;

  /** The real lease file, whose next write fails once armed (an EIO of a shared file system). */
  private static final class Glitching implements FileLeaseStorage {
    private final FileLeaseFile file;
    private final AtomicBoolean failNextWrite = new AtomicBoolean();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger writtenAfterFailure = new AtomicInteger();

    Glitching(Path lease) {
      this.file = new FileLeaseFile(lease);
    }

    @Override
    public LeaseRead read() {
      return file.read();
    }

    @Override
    public void write(FileLeaseDocument document) throws IOException {
      if (failNextWrite.getAndSet(false)) {
        failed.incrementAndGet();
        throw new IOException("injected: Input/output error");
      }
      file.write(document);
      if (failed.get() > 0) {
        writtenAfterFailure.incrementAndGet();
      }
    }

    @Override
    public String location() {
      return file.location();
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    // tmpfs when there is one: on a loaded disk the fsyncs of a write can outlast the 150 ms
    // io_timeout, and the test would measure the disk instead of the retry
    Path shm = Path.of("/dev/shm");
    dir =
        Files.isDirectory(shm) && Files.isWritable(shm)
            ? Files.createTempDirectory(shm, "sf2loki-lease-")
            : fallback;
  }

  @AfterEach
  void tearDown() throws Exception {
    stop.requestStop();
    if (runner != null) {
      runner.join(TestTiming.seconds(10).toMillis());
      assertThat(runner.isAlive()).isFalse();
      coordinator.close();
    }
    if (!dir.equals(fallback)) {
      try (var files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private void start(FileLeaseStorage storage) {
    FileLeaseConfig config =
        new FileLeaseConfig(dir.resolve("leader.lease"), TTL, RENEW, Optional.empty());
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            Clock.systemUTC(), Ticker.SYSTEM, Optional.empty(), registry, Map.of());
    DeadlineLeaseStorage deadlined =
        new DeadlineLeaseStorage(
            storage,
            new BlockingIo(
                "lease",
                DeadlineLeaseStorage.THREADS,
                new NamedThreadFactory("test-lease"),
                registry),
            config.ioTimeout());
    coordinator = new FileLeaseCoordinator(deadlined, "a", config, env, Sleeper.REAL);
    runner =
        new Thread(
            () -> {
              try {
                coordinator.run(listener, stop);
              } catch (Exception e) {
                failure.set(e);
              }
            },
            "lease-a");
    runner.start();
  }

  @Test
  void aLeaderWhoseRenewalWriteFailsOnceKeepsLeading() {
    Glitching storage = new Glitching(dir.resolve("leader.lease"));
    start(storage);
    await().atMost(TestTiming.seconds(10)).until(() -> listener.held().isPresent());
    Term term = listener.held().orElseThrow();

    storage.failNextWrite.set(true);
    await().atMost(TestTiming.seconds(5)).until(() -> storage.writtenAfterFailure.get() > 0);
    await().during(TTL.multipliedBy(2)).atMost(TestTiming.seconds(10)).until(term::isCurrent);

    assertThat(storage.failed.get()).isEqualTo(1);
    assertThat(listener.events()).as("the one acquire, no loss").hasSize(1);
    assertThat(term.lossReason()).isEmpty();
    assertThat(failure.get()).isNull();
  }
}
