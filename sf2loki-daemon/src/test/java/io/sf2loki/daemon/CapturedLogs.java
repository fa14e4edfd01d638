package io.sf2loki.daemon;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Every event logged while it is open, as Logback's root logger sees them. */
final class CapturedLogs implements AutoCloseable {

  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  CapturedLogs() {
    appender.setContext(root.getLoggerContext());
    appender.start();
    root.addAppender(appender);
  }

  /** The events so far, in order. */
  List<ILoggingEvent> events() {
    synchronized (appender) {
      return List.copyOf(appender.list);
    }
  }

  /** The formatted messages so far, in order. */
  List<String> messages() {
    return events().stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    appender.stop();
  }
}
