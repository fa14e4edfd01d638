package io.sf2loki.salesforce.auth;

import java.time.Duration;

/** Waits between retries; injected so tests never sleep. */
@FunctionalInterface
public interface Sleeper {

  /** {@link Thread#sleep}. */
  Sleeper SYSTEM = d -> Thread.sleep(d.toMillis());

  void sleep(Duration duration) throws InterruptedException;
}
