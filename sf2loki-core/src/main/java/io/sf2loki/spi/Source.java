package io.sf2loki.spi;

/**
 * A producer of log entries for one configured stream family (EventLogFile, event objects, Apex
 * logs, a Pub/Sub topic set).
 *
 * <p>Threading: {@link #run} is called once per leadership term on a thread owned by the pipeline
 * and blocks until {@link SourceContext#stopRequested()} or the source has nothing left to do. A
 * source resumes from {@link SourceContext#checkpoint(String)}; it never stores checkpoints itself
 * — it attaches them to entries and the pipeline commits them after delivery (invariant 1).
 */
public interface Source {

  /** A stable name used in logs, metrics ({@code source}) and thread names. */
  String name();

  /** Which lane this source's entries travel on. Pub/Sub streams are {@link Lane#STREAMING}. */
  default Lane lane() {
    return Lane.BULK;
  }

  /**
   * Produces entries until a stop is requested.
   *
   * @throws InterruptedException when interrupted while blocked on a full lane or a wait; the
   *     source must stop promptly and leave the interrupt flag to the caller
   * @throws Exception any other failure ends this source's run; the pipeline reports it and the
   *     uncommitted positions are re-read on the next run
   */
  void run(SourceContext ctx) throws Exception;

  /** The two lanes of the pipeline (invariant 4). */
  enum Lane {
    /** Live streams (Pub/Sub): never delayed behind a bulk drain. */
    STREAMING,
    /** Everything polled or downloaded: EventLogFile, SOQL objects, Apex logs. */
    BULK
  }
}
