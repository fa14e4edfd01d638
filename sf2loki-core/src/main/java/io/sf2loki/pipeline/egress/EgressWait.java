package io.sf2loki.pipeline.egress;

import java.time.Duration;

/** How the governor waits on a lane's delivery thread: interruptible by the run ending. */
public interface EgressWait {

  /**
   * Waits up to {@code duration}; the lane shows progress while it waits (a paused lane is not a
   * stalled one).
   *
   * @return true when the run aborted meanwhile and the batch must be given up
   */
  boolean await(Duration duration) throws InterruptedException;

  /** True once a graceful stop was requested: a batch held for the next day is given up. */
  boolean stopping();
}
