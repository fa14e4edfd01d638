package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.CommitReplayRequest;
import com.salesforce.eventbus.protobuf.CommitReplayResponse;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.ErrorCode;
import com.salesforce.eventbus.protobuf.ManagedFetchRequest;
import com.salesforce.eventbus.protobuf.ManagedFetchResponse;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The request side of one ManagedSubscribe call. The first request names the managed subscription
 * (by {@code subscription_id} or {@code developer_name}, never changed later), which must be in
 * state RUN and streamed by no other call; the stream starts after the committed position, else at
 * {@code defaultReplay}, and at {@code errorRecoveryReplay} when the committed id is no longer
 * valid. Credits work as for Subscribe. Commits are answered through {@code commit_response}; the
 * commits received between two ticks are merged into one answer, for the last of them.
 */
final class ManagedSubscribeCall extends RequestStream<ManagedFetchRequest>
    implements Subscription.Responses<ManagedFetchResponse> {

  /** A received commit and the time it arrived. */
  private record Pending(CommitReplayRequest request, long receivedMillis) {}

  private final FakePubSub fake;
  private final Subscription<ManagedFetchResponse> delivery;
  private final List<Pending> pending = new ArrayList<>();
  private ManagedRecord subscription;
  private TopicLog topic;

  ManagedSubscribeCall(
      FakePubSub fake, String token, ServerCallStreamObserver<ManagedFetchResponse> out) {
    this.fake = fake;
    this.delivery = fake.delivery(token, out, this); // it pumps only once started
  }

  @Override
  public ManagedFetchResponse batch(
      List<ConsumerEvent> events, ByteString latest, int pendingCredits, String rpcId) {
    return ManagedFetchResponse.newBuilder()
        .addAllEvents(events)
        .setLatestReplayId(latest)
        .setPendingNumRequested(pendingCredits)
        .setRpcId(rpcId)
        .build();
  }

  @Override
  public Optional<ManagedFetchResponse> due() {
    List<Pending> merged;
    synchronized (pending) {
      if (pending.isEmpty()) {
        return Optional.empty();
      }
      merged = List.copyOf(pending);
      pending.clear();
    }
    CommitReplayResponse answer = null;
    for (Pending p : merged) {
      answer = commit(p);
    }
    return Optional.of(ManagedFetchResponse.newBuilder().setCommitResponse(answer).build());
  }

  private CommitReplayResponse commit(Pending p) {
    ByteString id = p.request().getReplayId();
    CommitReplayResponse.Builder answer =
        CommitReplayResponse.newBuilder()
            .setCommitRequestId(p.request().getCommitRequestId())
            .setReplayId(id)
            .setProcessTime(p.receivedMillis());
    String refused = null;
    if (fake.takeCommitFault().isPresent()) {
      refused = "The commit could not be processed; retry the commit.";
    } else if (id.size() != 8 || !topic.holds(ByteBuffer.wrap(id.toByteArray()).getLong())) {
      refused = "The Replay ID is not valid for this subscription.";
    }
    if (refused == null) {
      subscription.commit(id);
    } else {
      answer.setError(
          com.salesforce.eventbus.protobuf.Error.newBuilder()
              .setCode(ErrorCode.COMMIT)
              .setMsg(refused));
    }
    String name = subscription.config().developerName();
    fake.managedSubscriptions()
        .record(
            new RecordedCommit(
                name, delivery.number(), p.request().getCommitRequestId(), id, refused == null));
    return answer.build();
  }

  @Override
  Subscription<?> delivery() {
    return delivery;
  }

  @Override
  public void onNext(ManagedFetchRequest request) {
    if (delivery.done()) {
      return;
    }
    boolean first = subscription == null;
    fake.managedSubscriptions()
        .record(
            new RecordedManagedFetch(
                delivery.number(),
                first,
                request.getSubscriptionId(),
                request.getDeveloperName(),
                request.getNumRequested(),
                request.getCommitReplayIdRequest().getReplayId(),
                delivery.token()));
    Optional<StatusRuntimeException> refused = first ? open(request) : check(request);
    if (refused.isPresent()) {
      delivery.fail(refused.get());
      return;
    }
    if (request.hasCommitReplayIdRequest()) {
      synchronized (pending) {
        pending.add(new Pending(request.getCommitReplayIdRequest(), fake.nowMillis()));
      }
    }
    delivery.grant(request.getNumRequested());
  }

  private Optional<StatusRuntimeException> open(ManagedFetchRequest request) {
    String ref =
        request.getSubscriptionId().isEmpty()
            ? request.getDeveloperName()
            : request.getSubscriptionId();
    if (ref.isEmpty()) {
      return Optional.of(PubSubErrors.managedIdentifierMissing());
    }
    Optional<ManagedRecord> found = fake.managedSubscriptions().find(ref);
    if (found.isEmpty()) {
      return Optional.of(PubSubErrors.managedNotFound(ref));
    }
    ManagedEventSubscription config = found.get().config();
    if (config.state() != ManagedEventSubscription.State.RUN) {
      return Optional.of(PubSubErrors.managedNotRunning(config.developerName(), config.state()));
    }
    Optional<StatusRuntimeException> refused =
        refusal(fake, config.topic(), request.getNumRequested());
    if (refused.isPresent()) {
      return refused;
    }
    if (!found.get().claim(this)) {
      return Optional.of(PubSubErrors.managedAlreadyActive(config.developerName()));
    }
    subscription = found.get();
    topic = fake.topicLog(config.topic()).orElseThrow();
    delivery.onEnd(() -> subscription.release(this));
    delivery.start(topic, start(config));
    return Optional.empty();
  }

  private long start(ManagedEventSubscription config) {
    Optional<ByteString> committed = subscription.committed();
    ManagedEventSubscription.Replay replay = config.defaultReplay();
    if (committed.isPresent()) {
      long id = ByteBuffer.wrap(committed.get().toByteArray()).getLong();
      if (topic.holds(id)) {
        return id;
      }
      replay = config.errorRecoveryReplay();
    }
    return replay == ManagedEventSubscription.Replay.EARLIEST ? topic.earliest() : topic.latest();
  }

  private Optional<StatusRuntimeException> check(ManagedFetchRequest request) {
    ManagedEventSubscription config = subscription.config();
    boolean otherId =
        !request.getSubscriptionId().isEmpty()
            && !request.getSubscriptionId().equals(subscription.id());
    boolean otherName =
        !request.getDeveloperName().isEmpty()
            && !request.getDeveloperName().equals(config.developerName());
    if (otherId || otherName) {
      return Optional.of(PubSubErrors.managedMismatch());
    }
    boolean creditless = !request.hasCommitReplayIdRequest();
    if (creditless && request.getNumRequested() <= 0 && fake.rejectsNonPositiveRequests()) {
      return Optional.of(PubSubErrors.requestedInvalid());
    }
    return Optional.empty();
  }
}
