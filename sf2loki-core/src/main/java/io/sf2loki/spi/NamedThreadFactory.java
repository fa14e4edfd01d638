package io.sf2loki.spi;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The way sf2loki makes threads: daemon threads named {@code <prefix>-<n>} (a component may rename
 * one after its role before starting it), whose uncaught exceptions are logged instead of being
 * printed to standard error. A composition root creates one and hands it to the components through
 * their environments; components never start raw threads of their own. Thread-safe.
 */
public final class NamedThreadFactory implements ThreadFactory {

  private static final Logger LOG = LoggerFactory.getLogger(NamedThreadFactory.class);

  private final String prefix;
  private final AtomicInteger created = new AtomicInteger();

  /**
   * @param prefix the name of every thread, before its number
   */
  public NamedThreadFactory(String prefix) {
    this.prefix = Objects.requireNonNull(prefix, "prefix");
  }

  /** A new, unstarted daemon thread running {@code body}. */
  @Override
  public Thread newThread(Runnable body) {
    Thread thread = new Thread(body, prefix + "-" + created.incrementAndGet());
    thread.setDaemon(true);
    thread.setUncaughtExceptionHandler(
        (t, e) -> LOG.error("thread {} ended with an uncaught exception", t.getName(), e));
    return thread;
  }
}
