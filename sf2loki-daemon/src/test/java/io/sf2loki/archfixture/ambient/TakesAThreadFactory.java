package io.sf2loki.archfixture.ambient;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/** Makes its threads with the factory it is given: what the rule asks, for {@code RulesTest}. */
public final class TakesAThreadFactory {
  private final ThreadFactory threads;

  public TakesAThreadFactory(ThreadFactory threads) {
    this.threads = threads;
  }

  public ExecutorService pool() {
    return Executors.newFixedThreadPool(2, threads);
  }

  public Thread thread(Runnable body) {
    return threads.newThread(body);
  }
}
