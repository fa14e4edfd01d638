package io.sf2loki.pipeline.egress;

/** What the governor decided for a batch about to be pushed. */
public sealed interface Admission {

  /** Push it. */
  record Admit() implements Admission {}

  /** The day's budget cannot take it and the action is drop: count it dropped, commit past it. */
  record Drop() implements Admission {}

  /** The run ended while the batch waited (a stop during a pause, or an abort): abandon it. */
  record GiveUp() implements Admission {}
}
