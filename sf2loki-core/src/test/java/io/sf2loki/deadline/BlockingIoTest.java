package io.sf2loki.deadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.engine.shard.OrgMeters;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Calls under a deadline on a bounded pool, against a call that blocks until released. */
class BlockingIoTest {

  private static final Path FILE = Path.of("/mnt/shared/state.json");
  private static final Duration DEADLINE = TestTiming.millis(200);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final BlockingIo io =
      new BlockingIo("state", 2, new NamedThreadFactory("test-io"), registry);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void tearDown() {
    release.countDown();
    io.close();
  }

  /** A call stuck like a system call on an unresponsive mount, until the test releases it. */
  private <T> IoCall<T> hung(T value) {
    return () -> {
      while (release.getCount() > 0) {
        try {
          release.await();
        } catch (InterruptedException e) {
          // a hung system call ignores interrupts
        }
      }
      return value;
    };
  }

  private double timeouts(String reason) {
    return registry
        .get("sf2loki_file_io_timeouts")
        .tags("file", "state", "operation", "write", "reason", reason)
        .counter()
        .count();
  }

  private int stuck() {
    return (int) registry.get("sf2loki_file_io_stuck_threads").gauge().value();
  }

  @Test
  void aCallThatFinishesInTimeReturnsItsValue() throws Exception {
    assertThat(io.call("read", FILE, DEADLINE, () -> "doc")).isEqualTo("doc");
  }

  @Test
  void aFailingCallPassesItsErrorOnUnchanged() {
    IOException eio = new IOException("Input/output error");
    assertThatThrownBy(
            () ->
                io.call(
                    "read",
                    FILE,
                    DEADLINE,
                    () -> {
                      throw eio;
                    }))
        .isSameAs(eio);
  }

  @Test
  void aHungCallFailsTypedWithinItsDeadlineNamingThePathAndTheDeadline() {
    long start = System.nanoTime();

    assertThatThrownBy(() -> io.call("write", FILE, DEADLINE, hung(Boolean.TRUE)))
        .isInstanceOfSatisfying(
            IoTimeoutException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(IoTimeoutException.Reason.DEADLINE);
              assertThat(e.path()).isEqualTo(FILE.toString());
              assertThat(e.deadline()).isEqualTo(DEADLINE);
              assertThat(e.getMessage()).contains("write of " + FILE, "deadline");
            });

    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isLessThan(DEADLINE.plus(TestTiming.seconds(2)));
    assertThat(timeouts("deadline")).isEqualTo(1);
    assertThat(stuck()).isEqualTo(1);
  }

  @Test
  void hungCallsNeverTakeMoreThreadsThanThePoolHasAndLaterCallsFailAtOnce() {
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> io.call("write", FILE, DEADLINE, hung(Boolean.TRUE)))
          .isInstanceOf(IoTimeoutException.class);
    }
    AtomicBoolean started = new AtomicBoolean();
    long start = System.nanoTime();

    assertThatThrownBy(
            () ->
                io.call(
                    "write",
                    FILE,
                    TestTiming.seconds(30),
                    () -> {
                      started.set(true);
                      return Boolean.TRUE;
                    }))
        .isInstanceOfSatisfying(
            IoTimeoutException.class,
            e -> assertThat(e.reason()).isEqualTo(IoTimeoutException.Reason.SATURATED));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TestTiming.seconds(5));
    assertThat(started).isFalse();
    assertThat(stuck()).isEqualTo(2);
    assertThat(timeouts("saturated")).isEqualTo(1);
  }

  @Test
  void theStuckGaugeReadsZeroNotNanOnceAClosedOwnersLastAbandonedCallHasFinished() {
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    AtomicBoolean finished = new AtomicBoolean();
    abandonOneCallAndClose(own, finished);
    release.countDown();
    await().atMost(TestTiming.seconds(5)).untilTrue(finished);

    System.gc(); // nothing references the closed BlockingIo any more

    await()
        .atMost(TestTiming.seconds(5))
        .until(() -> own.get("sf2loki_file_io_stuck_threads").gauge().value() == 0.0);
  }

  private void abandonOneCallAndClose(SimpleMeterRegistry own, AtomicBoolean finished) {
    BlockingIo shortLived = new BlockingIo("state", 1, new NamedThreadFactory("test-io"), own);
    IoCall<Boolean> call = hung(Boolean.TRUE);
    assertThatThrownBy(
            () -> shortLived.call("write", FILE, DEADLINE, call, done -> finished.set(true)))
        .isInstanceOf(IoTimeoutException.class);
    shortLived.close();
  }

  @Test
  void aStuckThreadThatFinishesAfterAllHandsItsResultToTheCleanUpAndIsFreeAgain() throws Exception {
    AtomicReference<String> cleanedUp = new AtomicReference<>();
    assertThatThrownBy(
            () -> io.call("write", FILE, DEADLINE, hung("lock taken late"), cleanedUp::set))
        .isInstanceOf(IoTimeoutException.class);

    release.countDown();

    await().atMost(TestTiming.seconds(5)).until(() -> cleanedUp.get() != null);
    assertThat(cleanedUp.get()).isEqualTo("lock taken late");
    await().atMost(TestTiming.seconds(5)).until(() -> stuck() == 0);
    assertThat(io.call("read", FILE, DEADLINE, () -> "doc")).isEqualTo("doc");
  }

  @Test
  void anInterruptedCallerStopsWaitingAndAbandonsTheCall() throws Exception {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread caller =
        new NamedThreadFactory("test-caller")
            .newThread(
                () -> {
                  try {
                    io.call("write", FILE, TestTiming.seconds(60), hung(Boolean.TRUE));
                  } catch (IOException | InterruptedException e) {
                    thrown.set(e);
                  }
                });
    caller.start();
    await()
        .atMost(TestTiming.seconds(5))
        .until(() -> caller.getState() == Thread.State.TIMED_WAITING);

    caller.interrupt();
    caller.join(TestTiming.seconds(5).toMillis());

    assertThat(caller.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    assertThat(stuck()).isEqualTo(1);
  }

  @Test
  void twoPoolsOfOneFileInOneOrgsRegistryShareOneStuckGaugeThatCountsBoth() {
    Logger micrometer = (Logger) LoggerFactory.getLogger("io.micrometer");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    micrometer.addAppender(logged);
    MeterRegistry org = OrgMeters.of(registry, "prod");
    BlockingIo document = new BlockingIo("state", 1, new NamedThreadFactory("test-io"), org);
    BlockingIo legacy = new BlockingIo("state", 1, new NamedThreadFactory("test-io"), org);
    try {
      for (BlockingIo pool : new BlockingIo[] {document, legacy}) {
        assertThatThrownBy(() -> pool.call("write", FILE, DEADLINE, hung(Boolean.TRUE)))
            .isInstanceOf(IoTimeoutException.class);
      }

      assertThat(registry.find("sf2loki_file_io_stuck_threads").tag("org", "prod").gauges())
          .singleElement()
          .extracting(Gauge::value)
          .isEqualTo(2.0);
      assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage).isEmpty();
    } finally {
      micrometer.detachAppender(logged);
      document.close();
      legacy.close();
    }
  }
}
