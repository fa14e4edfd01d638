package io.sf2loki.archfixture.ambient;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Makes a pool with the default thread factory, for {@code RulesTest}. */
public final class UsesTheDefaultThreadFactory {
  public ExecutorService pool() {
    return Executors.newFixedThreadPool(2);
  }
}
