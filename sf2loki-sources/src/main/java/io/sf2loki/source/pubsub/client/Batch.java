package io.sf2loki.source.pubsub.client;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.CommitReplayResponse;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ManagedFetchResponse;
import java.util.List;
import java.util.Optional;

/**
 * One response of a Subscribe or a ManagedSubscribe stream, which the rest of the source handles
 * alike.
 *
 * @param events the events, in stream order; none in a keepalive or a commit answer
 * @param latestReplayId the stream's latest position; empty when the response carries none
 * @param pendingNumRequested credits the server still holds
 * @param commit a ManagedSubscribe commit answer
 */
public record Batch(
    List<ConsumerEvent> events,
    ByteString latestReplayId,
    int pendingNumRequested,
    Optional<CommitReplayResponse> commit) {

  public Batch {
    events = List.copyOf(events);
  }

  /** A bare commit answer: it says nothing of the events or the credits. */
  public boolean commitOnly() {
    return commit.isPresent() && events.isEmpty() && latestReplayId.isEmpty();
  }

  static Batch of(FetchResponse r) {
    return new Batch(
        r.getEventsList(), r.getLatestReplayId(), r.getPendingNumRequested(), Optional.empty());
  }

  static Batch of(ManagedFetchResponse r) {
    return new Batch(
        r.getEventsList(),
        r.getLatestReplayId(),
        r.getPendingNumRequested(),
        r.hasCommitResponse() ? Optional.of(r.getCommitResponse()) : Optional.empty());
  }
}
