package io.sf2loki.source.pubsub;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Records what one class logs, until closed. */
final class LogCapture implements AutoCloseable {

  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  LogCapture(Class<?> of) {
    logger = (Logger) LoggerFactory.getLogger(of);
    appender.start();
    logger.addAppender(appender);
  }

  /** The formatted ERROR messages so far. */
  List<String> errors() {
    return messages(Level.ERROR);
  }

  /** The formatted messages at {@code level} so far. */
  List<String> messages(Level level) {
    synchronized (appender) { // AppenderBase appends under the appender's lock
      return appender.list.stream()
          .filter(e -> e.getLevel() == level)
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
  }
}
