package io.sf2loki.source.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.CommitReplayResponse;
import io.sf2loki.source.pubsub.client.PubSubClient;
import io.sf2loki.source.pubsub.client.StreamFailure;
import io.sf2loki.source.pubsub.client.TopicStream;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A topic streamed with ManagedSubscribe: Salesforce keeps its position. The server starts each
 * stream after the position committed on it (else at the subscription's {@code defaultReplay}), so
 * the local {@code pubsub:<topic>} checkpoint never decides the start; it stays the gate of the
 * server commits instead. A position is committed on the server only once the pipeline committed it
 * locally, which it does only after Loki accepted that entry and every entry before it, and only
 * when this run handed it downstream. The server position therefore never passes an undelivered
 * event; it lags the local one by at most a poll, so a restart sends again only what came after the
 * last server commit. One per topic, used by its thread only.
 */
final class ManagedSubscription {

  private static final Logger LOG = LoggerFactory.getLogger(ManagedSubscription.class);

  private final String topic;
  private final String name;
  private final PubSubMetrics metrics;
  private String sent = "";
  private int failedCommits;
  private int refusals;

  ManagedSubscription(String topic, String name, PubSubMetrics metrics) {
    this.topic = topic;
    this.name = name;
    this.metrics = metrics;
  }

  /** The ManagedEventSubscription's developer name. */
  String name() {
    return name;
  }

  /**
   * Opens a ManagedSubscribe stream on it. The local position is committed again on the new stream:
   * a commit sent on the previous one may have died with it.
   */
  TopicStream open(PubSubClient client, int credits) {
    sent = "";
    return client.managedSubscribe(name, credits);
  }

  /**
   * Commits {@code ours} on the server when it is new.
   *
   * @param ours the locally committed position, when this run handed it downstream
   */
  void committedLocally(Optional<String> ours, TopicStream stream) {
    if (ours.isEmpty() || ours.get().equals(sent)) {
      return;
    }
    Optional<ByteString> id = ReplayIds.decode(ours.get());
    if (id.isPresent()) {
      stream.commit(id.get());
      sent = ours.get();
    }
  }

  /** Counts a refused commit; the first of a streak is logged. */
  void answered(CommitReplayResponse answer) {
    if (!answer.hasError()) {
      failedCommits = 0;
      return;
    }
    metrics.commitError(topic);
    if (++failedCommits == 1) {
      LOG.error(
          "pubsub {}: managed subscription {} refused the commit of replay id {} ({}: {}); the"
              + " server keeps its older position, so a restart sends more events again (no gap);"
              + " further refusals are only counted until a commit succeeds",
          topic,
          name,
          ReplayIds.hex(answer.getReplayId()),
          answer.getError().getCode(),
          answer.getError().getMsg());
    }
  }

  /** A stream of it delivered: the next refusal is logged again. */
  void streamed() {
    refusals = 0;
  }

  /**
   * Logs a failure that concerns the managed subscription itself.
   *
   * @return false when {@code f} is not one: the caller reports it as for any stream
   */
  boolean report(StreamFailure f, Duration retry) {
    if (f instanceof StreamFailure.InUse u) {
      if (++refusals == 1) {
        LOG.error(
            "pubsub {}: managed subscription {} is streamed by another client ({}); it serves one"
                + " client at a time: another sf2loki or app uses it, or a previous leader's stream"
                + " has not ended yet; retrying with backoff",
            topic,
            name,
            u.description());
      }
      return true;
    }
    if (f instanceof StreamFailure.Permanent p && p.code().startsWith("managed.subscription.")) {
      LOG.error(
          "pubsub {}: managed subscription {} refused the stream ({}); its ManagedEventSubscription"
              + " must exist, be in State RUN and stream {} (retrying every {})",
          topic,
          name,
          p.description(),
          topic,
          retry);
      return true;
    }
    return false;
  }
}
