package io.sf2loki.salesforce.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Records what one class logs, until closed. */
public final class LogCapture implements AutoCloseable {

  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  public LogCapture(Class<?> of) {
    logger = (Logger) LoggerFactory.getLogger(of);
    appender.start();
    logger.addAppender(appender);
  }

  /** The formatted WARN messages so far. */
  public List<String> warnings() {
    return messages(Level.WARN);
  }

  /** The formatted ERROR messages so far. */
  public List<String> errors() {
    return messages(Level.ERROR);
  }

  /** The formatted messages at {@code level} so far. */
  public List<String> messages(Level level) {
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
