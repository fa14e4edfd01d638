package io.sf2loki.testkit.pubsub;

import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ProducerEvent;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * One Subscribe call: credit accounting (Σ requested − delivered, capped at 100), delivery split
 * across responses at random, keepalives, the idle rule and the stream's scripted fault. {@link
 * #pump} runs on the fake's ticker and after every request; all state is guarded by this object.
 */
final class Subscription implements StreamObserver<FetchRequest> {

  static final int MAX_CREDITS = 100;

  private final FakePubSub fake;
  private final int number;
  private final String token;
  private final ServerCallStreamObserver<FetchResponse> out;
  private final Random random;
  private TopicLog topic;
  private long position;
  private int outstanding;
  private long delivered;
  private long lastRequestNanos;
  private long lastSendNanos;
  private Optional<PubSubFault.Stream> fault = Optional.empty();
  private boolean stalled;
  private boolean done;

  Subscription(
      FakePubSub fake,
      int number,
      String token,
      ServerCallStreamObserver<FetchResponse> out,
      Random random) {
    this.fake = fake;
    this.number = number;
    this.token = token;
    this.out = out;
    this.random = random;
    out.setOnCancelHandler(this::cancelled);
  }

  @Override
  public void onNext(FetchRequest request) {
    boolean first;
    synchronized (this) {
      if (done) {
        return;
      }
      first = topic == null;
      fake.record(
          new RecordedFetch(
              number,
              first,
              request.getTopicName(),
              request.getReplayPreset().name(),
              request.getReplayId(),
              request.getNumRequested(),
              token));
      Optional<StatusRuntimeException> refused = first ? open(request) : check(request);
      if (refused.isPresent()) {
        fail(refused.get());
        return;
      }
      outstanding = Math.min(MAX_CREDITS, outstanding + Math.max(0, request.getNumRequested()));
      fake.observeOutstanding(outstanding);
      lastRequestNanos = System.nanoTime();
    }
    pump();
  }

  private Optional<StatusRuntimeException> open(FetchRequest request) {
    Optional<TopicLog> log = fake.topicLog(request.getTopicName());
    if (log.isEmpty()) {
      return Optional.of(PubSubErrors.topicNotFound(request.getTopicName()));
    }
    if (!log.get().canSubscribe()) {
      return Optional.of(PubSubErrors.cannotSubscribe(request.getTopicName()));
    }
    if (request.getNumRequested() <= 0 && fake.rejectsNonPositiveRequests()) {
      return Optional.of(PubSubErrors.requestedInvalid());
    }
    topic = log.get();
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
    fault = fake.takeStreamFault();
    lastSendNanos = System.nanoTime();
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

  /** Delivers what credits allow, sends a due keepalive, applies the idle rule and the fault. */
  synchronized void pump() {
    if (done || topic == null || stalled) {
      return;
    }
    if (strikeIfDue()) {
      return;
    }
    long now = System.nanoTime();
    while (outstanding > 0) {
      List<TopicLog.Stored> next = topic.after(position, outstanding);
      if (next.isEmpty()) {
        break;
      }
      int take = next.size() == 1 ? 1 : 1 + random.nextInt(next.size());
      if (fault.isPresent()) {
        take = (int) Math.min(take, Math.max(1, fault.get().afterEvents() - delivered));
      }
      FetchResponse.Builder response = FetchResponse.newBuilder().setRpcId(rpcId());
      int events = 0;
      for (TopicLog.Stored s : next.subList(0, take)) {
        position = s.id();
        if (!s.marker()) {
          response.addEvents(consumerEvent(s));
          events++;
        }
      }
      if (events == 0) {
        continue; // markers only: the position moved, the next keepalive carries it
      }
      outstanding -= events;
      delivered += events;
      fake.countDelivered(events);
      response.setLatestReplayId(TopicLog.replayId(position)).setPendingNumRequested(outstanding);
      send(response.build(), now);
      if (strikeIfDue()) {
        return;
      }
    }
    if (outstanding > 0 && now - lastSendNanos >= fake.keepaliveInterval().toNanos()) {
      List<TopicLog.Stored> ahead = topic.after(position, MAX_CREDITS);
      if (ahead.stream().allMatch(TopicLog.Stored::marker)) {
        if (!ahead.isEmpty()) {
          position = ahead.get(ahead.size() - 1).id(); // an advanced position
        }
        send(
            FetchResponse.newBuilder()
                .setRpcId(rpcId())
                .setLatestReplayId(TopicLog.replayId(position))
                .setPendingNumRequested(outstanding)
                .build(),
            now);
      }
    }
    if (outstanding == 0 && now - lastRequestNanos >= fake.idleTimeout().toNanos()) {
      done = true;
      fake.ended(this);
      if (fake.idleEndsWithError()) {
        out.onError(PubSubErrors.rstStream());
      } else {
        out.onCompleted();
      }
    }
  }

  private boolean strikeIfDue() {
    if (fault.isEmpty() || delivered < fault.get().afterEvents()) {
      return false;
    }
    PubSubFault.StreamKind kind = fault.get().kind();
    fault = Optional.empty();
    switch (kind) {
      case STALL -> stalled = true;
      case CLEAN_CLOSE -> {
        done = true;
        fake.ended(this);
        out.onCompleted();
      }
      case AUTH_ERROR -> {
        fake.revoke(token);
        fail(PubSubErrors.auth());
      }
      case RST_STREAM -> fail(PubSubErrors.rstStream());
      case SERVICE_UNAVAILABLE -> fail(PubSubErrors.serviceUnavailable());
      case CLIENT_LIMIT -> fail(PubSubErrors.clientLimit());
    }
    return true;
  }

  /** Ends the stream with {@code error} (a revoked token, a server shutdown). */
  synchronized void fail(StatusRuntimeException error) {
    if (!done) {
      done = true;
      fake.ended(this);
      out.onError(error);
    }
  }

  synchronized String token() {
    return token;
  }

  private void send(FetchResponse response, long now) {
    out.onNext(response);
    lastSendNanos = now;
  }

  private static ConsumerEvent consumerEvent(TopicLog.Stored s) {
    ProducerEvent.Builder event =
        ProducerEvent.newBuilder()
            .setSchemaId(s.schemaId())
            .setPayload(com.google.protobuf.ByteString.copyFrom(s.payload()));
    if (s.eventId() != null) {
      event.setId(s.eventId());
    }
    return ConsumerEvent.newBuilder().setEvent(event).setReplayId(s.replayId()).build();
  }

  private static String rpcId() {
    return UUID.randomUUID().toString();
  }

  private synchronized void cancelled() {
    done = true;
    fake.ended(this);
  }

  @Override
  public void onError(Throwable t) {
    cancelled();
  }

  @Override
  public synchronized void onCompleted() {
    if (!done) {
      done = true;
      fake.ended(this);
      out.onCompleted();
    }
  }
}
