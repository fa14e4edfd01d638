package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.ProducerEvent;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * The delivery side of one Subscribe or ManagedSubscribe call: credit accounting (Σ requested −
 * delivered, capped at 100), delivery split across responses at random, keepalives, the idle rule
 * and the stream's scripted fault. The call's protocol ({@link SubscribeCall}, {@link
 * ManagedSubscribeCall}) reads the requests and {@link #start}s it at a position; {@link #pump}
 * runs on the fake's ticker and after every request. All state is guarded by this object.
 *
 * @param <R> the call's response message
 */
final class Subscription<R> {

  static final int MAX_CREDITS = 100;

  /** How the call's responses are built. */
  interface Responses<R> {
    /** A response with {@code events} (none: a keepalive). */
    R batch(List<ConsumerEvent> events, ByteString latest, int pending, String rpcId);

    /** A response the call has to send besides events (a merged commit answer), if any is due. */
    default Optional<R> due() {
      return Optional.empty();
    }
  }

  private final FakePubSub fake;
  private final int number;
  private final String token;
  private final ServerCallStreamObserver<R> out;
  private final Random random;
  private final Responses<R> responses;
  private final List<Runnable> onEnd = new ArrayList<>();
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
      ServerCallStreamObserver<R> out,
      Random random,
      Responses<R> responses) {
    this.fake = fake;
    this.number = number;
    this.token = token;
    this.out = out;
    this.random = random;
    this.responses = responses;
    out.setOnCancelHandler(this::cancelled);
  }

  /** The call's number (1 for the first call the fake served). */
  int number() {
    return number;
  }

  /** Runs {@code action} once when the call ends, however it ends. */
  synchronized void onEnd(Runnable action) {
    if (done) {
      action.run();
    } else {
      onEnd.add(action);
    }
  }

  synchronized boolean done() {
    return done;
  }

  /** True once {@link #start} ran. */
  synchronized boolean started() {
    return topic != null;
  }

  /** Starts delivering {@code log} after {@code after}; takes the stream's scripted fault. */
  synchronized void start(TopicLog log, long after) {
    topic = log;
    position = after;
    fault = fake.takeStreamFault();
    lastSendNanos = System.nanoTime();
    lastRequestNanos = lastSendNanos; // the first request's credits follow right after
  }

  /** Adds {@code n} credits (a negative or zero count adds none), capped at 100. */
  void grant(int n) {
    synchronized (this) {
      if (done) {
        return;
      }
      outstanding = Math.min(MAX_CREDITS, outstanding + Math.max(0, n));
      fake.observeOutstanding(outstanding);
      lastRequestNanos = System.nanoTime();
    }
    pump();
  }

  /** Delivers what credits allow, sends a due keepalive, applies the idle rule and the fault. */
  synchronized void pump() {
    if (done || topic == null || stalled) {
      return;
    }
    long now = System.nanoTime();
    Optional<R> due = responses.due();
    if (due.isPresent()) {
      send(due.get(), now);
    }
    if (strikeIfDue()) {
      return;
    }
    while (outstanding > 0) {
      List<TopicLog.Stored> next = topic.after(position, outstanding);
      if (next.isEmpty()) {
        break;
      }
      int take = next.size() == 1 ? 1 : 1 + random.nextInt(next.size());
      if (fault.isPresent()) {
        take = (int) Math.min(take, Math.max(1, fault.get().afterEvents() - delivered));
      }
      List<ConsumerEvent> events = new ArrayList<>();
      for (TopicLog.Stored s : next.subList(0, take)) {
        position = s.id();
        if (!s.marker()) {
          events.add(consumerEvent(s));
        }
      }
      if (events.isEmpty()) {
        continue; // markers only: the position moved, the next keepalive carries it
      }
      outstanding -= events.size();
      delivered += events.size();
      fake.countDelivered(events.size());
      send(responses.batch(events, TopicLog.replayId(position), outstanding, rpcId()), now);
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
        send(responses.batch(List.of(), TopicLog.replayId(position), outstanding, rpcId()), now);
      }
    }
    // Salesforce's rule: no request within the timeout of the last response once the credits are
    // used up. Counting from the last request instead closed a client whose credits ran out long
    // after it asked (a slow topic, a client busy with what it got) without any time to ask again.
    long idleSince = Math.max(lastRequestNanos, lastSendNanos);
    if (outstanding == 0 && now - idleSince >= fake.idleTimeout().toNanos()) {
      if (fake.idleEndsWithError()) {
        fail(PubSubErrors.rstStream());
      } else {
        complete();
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
      case CLEAN_CLOSE -> complete();
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

  /** Ends the stream with {@code error} (a refused request, a revoked token, a fault). */
  synchronized void fail(StatusRuntimeException error) {
    if (end()) {
      out.onError(error);
    }
  }

  /** Ends the stream cleanly (the client half-closed, the idle rule, a clean-close fault). */
  synchronized void complete() {
    if (end()) {
      out.onCompleted();
    }
  }

  synchronized String token() {
    return token;
  }

  private boolean end() {
    if (done) {
      return false;
    }
    done = true;
    onEnd.forEach(Runnable::run); // before it leaves the live streams a test may wait on
    onEnd.clear();
    fake.ended(this);
    return true;
  }

  private void send(R response, long now) {
    out.onNext(response);
    lastSendNanos = now;
  }

  private static ConsumerEvent consumerEvent(TopicLog.Stored s) {
    ProducerEvent.Builder event =
        ProducerEvent.newBuilder()
            .setSchemaId(s.schemaId())
            .setPayload(ByteString.copyFrom(s.payload()));
    if (s.eventId() != null) {
      event.setId(s.eventId());
    }
    return ConsumerEvent.newBuilder().setEvent(event).setReplayId(s.replayId()).build();
  }

  private static String rpcId() {
    return UUID.randomUUID().toString();
  }

  /** The client cancelled the call, or its transport broke. */
  synchronized void cancelled() {
    end();
  }
}
