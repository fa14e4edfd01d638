package io.sf2loki.spi;

/** Whether trying again can help: the engine's next move after a failure depends on it. */
public enum FailureKind {

  /**
   * Trying again later may succeed (a 5xx, a timeout, a refused connection, a lock another process
   * holds only for a moment): the engine gives the term up, backs off and campaigns again.
   */
  TRANSIENT,

  /**
   * Only an operator can fix it (access denied, a read-only or full file system, a missing bucket,
   * rejected credentials, a state file another sf2loki holds): the engine tries a few times, then
   * the process exits 1 with one line naming the resource and the fix.
   */
  PERMANENT
}
