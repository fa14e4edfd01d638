package io.sf2loki.spi;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The one way sf2loki makes threads: numbered names, daemon, uncaught exceptions logged. */
class NamedThreadFactoryTest {

  @Test
  void threadsAreNumberedDaemonsAndNotStarted() {
    NamedThreadFactory factory = new NamedThreadFactory("sf2loki-test");

    Thread first = factory.newThread(() -> {});
    Thread second = factory.newThread(() -> {});

    assertThat(first.getName()).isEqualTo("sf2loki-test-1");
    assertThat(second.getName()).isEqualTo("sf2loki-test-2");
    assertThat(first.isDaemon()).isTrue();
    assertThat(first.getState()).isEqualTo(Thread.State.NEW);
  }

  @Test
  void anUncaughtExceptionIsLoggedWithTheThreadsName() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(NamedThreadFactory.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      Thread t =
          new NamedThreadFactory("sf2loki-test")
              .newThread(
                  () -> {
                    throw new IllegalStateException("boom");
                  });
      t.setName("sf2loki-lane-BULK-push");
      t.start();
      t.join(10_000);

      assertThat(appender.list)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getLevel()).isEqualTo(Level.ERROR);
                assertThat(e.getFormattedMessage()).contains("sf2loki-lane-BULK-push");
                assertThat(e.getThrowableProxy().getMessage()).isEqualTo("boom");
              });
    } finally {
      logger.detachAppender(appender);
    }
  }
}
