package io.sf2loki.pipeline;

import io.sf2loki.model.Batch;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.pipeline.egress.EgressGovernor;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the lane stages of a run share, and the one way a formed batch is given up: {@link
 * #abandon}, used by both stages so a batch in push and a batch waiting in the hand-off are
 * abandoned alike.
 */
record LaneShared(
    Sink sink,
    Committer committer,
    RunControl control,
    PipelineMetrics metrics,
    Ticker ticker,
    Clock clock,
    EgressGovernor egress) {

  private static final Logger LOG = LoggerFactory.getLogger(LaneShared.class);

  /**
   * Gives up an undelivered batch (invariant 1): every key it carries is blocked from any later
   * commit in this run, so nothing commits past entries that never reached Loki, and the batch is
   * counted in the run's abandoned total.
   *
   * @param where "in push" or "waiting in the hand-off", for the log
   */
  void abandon(Source.Lane lane, Batch batch, String where) {
    Set<String> keys =
        batch.entries().stream()
            .flatMap(e -> e.checkpoint().stream())
            .map(CheckpointToken::key)
            .collect(Collectors.toSet());
    abandon(lane, keys, 1, batch.entries().size(), where);
  }

  /** The same for {@code batches} batches of {@code entries} in all, carrying {@code keys}. */
  void abandon(Source.Lane lane, Set<String> keys, int batches, int entries, String where) {
    committer.block(keys);
    for (int i = 0; i < batches; i++) {
      control.abandoned();
    }
    LOG.warn(
        "{} lane: abandoned {} batch(es) of {} entries ({}) uncommitted; keys {} stay at"
            + " their last committed positions for this run",
        lane,
        batches,
        entries,
        where,
        keys);
  }
}
