package io.sf2loki.pipeline.egress;

import java.time.Instant;

/** What the governor decided for a batch about to be pushed. */
public sealed interface Admission {

  /** Push it. */
  record Admit() implements Admission {}

  /** The day's budget cannot take it and the action is drop: count it dropped, commit past it. */
  record Drop() implements Admission {}

  /**
   * The day's budget cannot take it and the action is pause, for a caller that cannot wait ({@link
   * EgressGovernor#admitOrHold}): keep it, commit nothing past it, ask again.
   *
   * @param until when the next UTC day, and its budget, begins
   */
  record Hold(Instant until) implements Admission {}

  /** The run ended while the batch waited (a stop during a pause, or an abort): abandon it. */
  record GiveUp() implements Admission {}
}
