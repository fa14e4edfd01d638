package io.sf2loki.daemon;

import io.sf2loki.config.orgs.Shards;

/** Runs the service for a validated configuration (its shards) and returns the exit code. */
@FunctionalInterface
interface DaemonRunner {

  /**
   * Runs until stopped.
   *
   * @param debug {@code --debug}: sf2loki's own loggers log at DEBUG, stack traces of expected
   *     failures included
   * @return 0 after a graceful stop or a finished finite run; 1 after a failure (of any org)
   */
  int run(Shards shards, boolean debug) throws Exception;
}
