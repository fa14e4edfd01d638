package io.sf2loki.pipeline;

import io.sf2loki.spi.Source;
import java.time.Duration;
import java.util.Objects;

/**
 * A lane that holds queued entries but has neither taken one from its queue, nor ended a push
 * attempt, nor committed for {@code duration}: something in it hangs (a push, a commit, a stage).
 *
 * @param lane the lane
 * @param duration how long it has not moved, on the run's ticker
 * @param queuedEntries the entries waiting in its queue
 */
public record LaneStall(Source.Lane lane, Duration duration, int queuedEntries) {

  public LaneStall {
    Objects.requireNonNull(lane, "lane");
    Objects.requireNonNull(duration, "duration");
  }
}
