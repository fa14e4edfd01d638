package io.sf2loki.source.pubsub.client;

import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.sf2loki.source.pubsub.replay.ReplayStart;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One Subscribe call of one topic. Responses are queued by the gRPC thread and taken by the topic's
 * own thread, which decodes and hands them downstream and only then tops the credits up: credits
 * are the backpressure, so a blocked pipeline stops the server.
 *
 * <p>Credit accounting is the client's own: outstanding = Σ requested − Σ events taken. It is never
 * below the server's count, so a top-up of {@code n − outstanding} never lets more than {@code n}
 * (≤ 100) events be pending.
 */
public final class TopicStream implements AutoCloseable {

  /** What the stream produced next. */
  public sealed interface Message {}

  /** A response: events, or none (a keepalive). */
  public record Response(FetchResponse response) implements Message {}

  /**
   * The call ended.
   *
   * @param failure empty for a clean close by the server
   */
  public record Ended(Optional<StreamFailure> failure) implements Message {}

  private final BlockingQueue<Message> queue = new LinkedBlockingQueue<>();
  private final String topic;
  private final int credits;
  private volatile ClientCallStreamObserver<FetchRequest> requests;
  private int outstanding;

  private TopicStream(String topic, int credits) {
    this.topic = topic;
    this.credits = credits;
  }

  /**
   * Opens a Subscribe call and sends its first request.
   *
   * @param credits {@code num_requested} of the first request and the top-up target, 1 to 100
   */
  static TopicStream open(
      PubSubGrpc.PubSubStub stub, String topic, ReplayStart start, int credits) {
    TopicStream stream = new TopicStream(topic, credits);
    stub.subscribe(stream.new Observer());
    FetchRequest.Builder first =
        FetchRequest.newBuilder()
            .setTopicName(topic)
            .setReplayPreset(start.preset())
            .setNumRequested(credits);
    if (start.custom()) {
      first.setReplayId(start.replayId());
    }
    stream.outstanding = credits;
    stream.send(first.build());
    return stream;
  }

  /**
   * The next message, or empty when none came within {@code silence} (the watchdog's bound). Events
   * of a response count as taken from the credits.
   */
  public Optional<Message> next(Duration silence) throws InterruptedException {
    Message m = queue.poll(silence.toMillis(), TimeUnit.MILLISECONDS);
    if (m instanceof Response r) {
      outstanding -= r.response().getEventsCount();
    }
    return Optional.ofNullable(m);
  }

  /**
   * Tops the credits up to the target once at most half are outstanding; call after the taken
   * events were handed downstream (and after keepalives).
   */
  public void topUp() {
    if (outstanding <= credits / 2) {
      int more = credits - outstanding;
      outstanding = credits;
      send(FetchRequest.newBuilder().setTopicName(topic).setNumRequested(more).build());
    }
  }

  /** Credits outstanding by the client's count. */
  public int outstanding() {
    return outstanding;
  }

  private void send(FetchRequest request) {
    try {
      requests.onNext(request);
    } catch (RuntimeException e) { // the call already ended: its end is queued
      queue.add(new Ended(Optional.empty()));
    }
  }

  /** Cancels the call (stop, watchdog, or a failure found while decoding). */
  @Override
  public void close() {
    ClientCallStreamObserver<FetchRequest> r = requests;
    if (r != null) {
      r.cancel("closed by the client", null);
    }
  }

  private final class Observer implements ClientResponseObserver<FetchRequest, FetchResponse> {

    @Override
    public void beforeStart(ClientCallStreamObserver<FetchRequest> requestStream) {
      requests = requestStream;
    }

    @Override
    public void onNext(FetchResponse value) {
      queue.add(new Response(value));
    }

    @Override
    public void onError(Throwable t) {
      Status status = Status.fromThrowable(t);
      queue.add(new Ended(Optional.of(StreamFailure.of(status, Status.trailersFromThrowable(t)))));
    }

    @Override
    public void onCompleted() {
      queue.add(new Ended(Optional.empty()));
    }
  }
}
