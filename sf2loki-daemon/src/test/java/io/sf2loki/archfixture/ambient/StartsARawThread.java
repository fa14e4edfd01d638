package io.sf2loki.archfixture.ambient;

/** Starts a thread of its own instead of taking a factory, for {@code RulesTest}. */
public final class StartsARawThread {
  public void start(Runnable body) {
    new Thread(body, "raw").start();
  }
}
