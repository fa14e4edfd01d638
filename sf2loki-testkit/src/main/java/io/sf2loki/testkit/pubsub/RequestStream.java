package io.sf2loki.testkit.pubsub;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.Optional;

/**
 * What the Subscribe and ManagedSubscribe calls share on their request side: how the client's end
 * of the call ends its delivery, and the topic checks of a first request.
 *
 * @param <Q> the call's request message
 */
abstract class RequestStream<Q> implements StreamObserver<Q> {

  /** The call's delivery side. */
  abstract Subscription<?> delivery();

  /**
   * The refusal the real service answers a first request on {@code topic} asking {@code
   * numRequested} credits with: an unknown topic, one the user may not read, no credits.
   */
  static Optional<StatusRuntimeException> refusal(FakePubSub fake, String topic, int numRequested) {
    Optional<TopicLog> log = fake.topicLog(topic);
    if (log.isEmpty()) {
      return Optional.of(PubSubErrors.topicNotFound(topic));
    }
    if (!log.get().canSubscribe()) {
      return Optional.of(PubSubErrors.cannotSubscribe(topic));
    }
    if (numRequested <= 0 && fake.rejectsNonPositiveRequests()) {
      return Optional.of(PubSubErrors.requestedInvalid());
    }
    return Optional.empty();
  }

  @Override
  public final void onError(Throwable t) {
    delivery().cancelled();
  }

  @Override
  public final void onCompleted() {
    delivery().complete();
  }
}
