package io.sf2loki.testkit.pubsub;

import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.Optional;

/**
 * The request side of one Subscribe call: the first FetchRequest names the topic and where to start
 * (LATEST, EARLIEST, or CUSTOM strictly after a stored id), later ones add credits; a changed topic
 * name is an INVALID_ARGUMENT, later presets and ids are ignored.
 */
final class SubscribeCall extends RequestStream<FetchRequest> {

  private final FakePubSub fake;
  private final Subscription<FetchResponse> delivery;
  private TopicLog topic;

  SubscribeCall(FakePubSub fake, String token, ServerCallStreamObserver<FetchResponse> out) {
    this.fake = fake;
    this.delivery = fake.delivery(token, out, responses());
  }

  /** Subscribe's response: events, the latest position and the credits left. */
  private static Subscription.Responses<FetchResponse> responses() {
    return (events, latest, pending, rpcId) ->
        FetchResponse.newBuilder()
            .addAllEvents(events)
            .setLatestReplayId(latest)
            .setPendingNumRequested(pending)
            .setRpcId(rpcId)
            .build();
  }

  @Override
  public void onNext(FetchRequest request) {
    if (delivery.done()) {
      return;
    }
    boolean first = topic == null;
    fake.record(
        new RecordedFetch(
            delivery.number(),
            first,
            request.getTopicName(),
            request.getReplayPreset().name(),
            request.getReplayId(),
            request.getNumRequested(),
            delivery.token()));
    Optional<StatusRuntimeException> refused = first ? open(request) : check(request);
    if (refused.isPresent()) {
      delivery.fail(refused.get());
      return;
    }
    delivery.grant(request.getNumRequested());
  }

  @Override
  Subscription<?> delivery() {
    return delivery;
  }

  private Optional<StatusRuntimeException> open(FetchRequest request) {
    Optional<StatusRuntimeException> refused =
        refusal(fake, request.getTopicName(), request.getNumRequested());
    if (refused.isPresent()) {
      return refused;
    }
    topic = fake.topicLog(request.getTopicName()).orElseThrow();
    long position;
    if (request.getReplayPreset() == ReplayPreset.CUSTOM) {
      if (request.getReplayId().isEmpty()) {
        return Optional.of(PubSubErrors.replayValidation());
      }
      Optional<Long> at = topic.positionOf(request.getReplayId());
      if (at.isEmpty()) {
        return Optional.of(PubSubErrors.replayCorrupted());
      }
      position = at.get();
    } else {
      position =
          request.getReplayPreset() == ReplayPreset.EARLIEST ? topic.earliest() : topic.latest();
    }
    delivery.start(topic, position);
    return Optional.empty();
  }

  private Optional<StatusRuntimeException> check(FetchRequest request) {
    if (!request.getTopicName().isEmpty() && !request.getTopicName().equals(topic.name())) {
      return Optional.of(PubSubErrors.topicMismatch());
    }
    if (request.getNumRequested() <= 0 && fake.rejectsNonPositiveRequests()) {
      return Optional.of(PubSubErrors.requestedInvalid());
    }
    return Optional.empty();
  }
}
