package io.sf2loki.engine.shard;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import org.slf4j.MDC;

/**
 * Makes an org's threads with {@code delegate}, each running with the MDC entry {@code org=<name>}
 * so that every log line of the org's engine, sources and pipeline says which org it is about
 * (logfmt and JSON logs carry the MDC; the text format prints it before the message).
 */
public final class OrgThreads implements ThreadFactory {

  /** The MDC key naming the org. */
  public static final String MDC_KEY = "org";

  private final ThreadFactory delegate;
  private final String name;

  public OrgThreads(ThreadFactory delegate, String name) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.name = Objects.requireNonNull(name, "name");
  }

  @Override
  public Thread newThread(Runnable body) {
    return delegate.newThread(
        () -> {
          MDC.put(MDC_KEY, name);
          body.run();
        });
  }
}
