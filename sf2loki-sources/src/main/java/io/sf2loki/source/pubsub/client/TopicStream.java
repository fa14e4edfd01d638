package io.sf2loki.source.pubsub.client;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.CommitReplayRequest;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ManagedFetchRequest;
import com.salesforce.eventbus.protobuf.ManagedFetchResponse;
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
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * One Subscribe or ManagedSubscribe call of one topic. Responses are queued by the gRPC thread and
 * taken by the topic's own thread, which decodes and hands them downstream. Both RPCs share this;
 * they differ only in their messages and in the commits a managed stream sends.
 *
 * <p>Credits are the backpressure. Once at most half are outstanding they are topped up, back to
 * {@code credits}, provided at most half the credits' worth of events wait in the queue: by the
 * gRPC thread as a response arrives, or by the topic thread once it handed a response downstream. A
 * blocked pipeline stops taking, the queue grows past half, and the server stops once the credits
 * are used; so at most {@code 1.5 × credits} events wait received and not taken, besides the
 * response the topic thread holds. Topping up on arrival keeps the topic thread's wake-up out of
 * the credit loop: when the topic thread alone topped up, that loop, not the CPU, set one
 * subscription's ceiling (docs/performance.md §4). The callbacks run on the transport's own thread
 * ({@link PubSubClient}), so nothing they do may block: they only queue, count and send.
 *
 * <p>Credit accounting is the client's own: outstanding = Σ requested − Σ events received. It is
 * never below the server's count, so a top-up of {@code n − outstanding} never lets more than
 * {@code n} (≤ 100) events be pending. Every request is sent under this stream's lock: gRPC's
 * request observer is not thread-safe, and the two threads both send.
 */
public final class TopicStream implements AutoCloseable {

  /** What the stream produced next. */
  public sealed interface Message {}

  /** A response: events, or none (a keepalive, a commit answer). */
  public record Response(Batch batch) implements Message {}

  /**
   * The call ended.
   *
   * @param failure empty for a clean close by the server
   */
  public record Ended(Optional<StreamFailure> failure) implements Message {}

  private final BlockingQueue<Message> queue = new LinkedBlockingQueue<>();
  private final int credits;
  private Call<?, ?> call; // set once, by the factory method, before the stream is handed out
  private int outstanding; // guarded by this
  private int queued; // events received and not yet taken; guarded by this
  private long commits; // guarded by this
  private boolean closed; // guarded by this: a cancelled call takes no more requests

  private TopicStream(int credits) {
    this.credits = credits;
    this.outstanding = credits; // what the first request asks for
  }

  /**
   * Opens a Subscribe call and sends its first request.
   *
   * @param credits {@code num_requested} of the first request and the top-up target, 1 to 100
   */
  static TopicStream subscribe(
      PubSubGrpc.PubSubStub stub, String topic, ReplayStart start, int credits) {
    TopicStream stream = new TopicStream(credits);
    Call<FetchRequest, FetchResponse> call =
        new Call<>(
            stream,
            Batch::of,
            n -> FetchRequest.newBuilder().setTopicName(topic).setNumRequested(n).build(),
            null);
    stream.call = call;
    stub.subscribe(call);
    FetchRequest.Builder first =
        FetchRequest.newBuilder()
            .setTopicName(topic)
            .setReplayPreset(start.preset())
            .setNumRequested(credits);
    if (start.custom()) {
      first.setReplayId(start.replayId());
    }
    synchronized (stream) {
      call.send(first.build());
    }
    return stream;
  }

  /**
   * Opens a ManagedSubscribe call on the managed subscription {@code developerName} and sends its
   * first request: the server starts after the position committed on it.
   */
  static TopicStream managed(PubSubGrpc.PubSubStub stub, String developerName, int credits) {
    TopicStream stream = new TopicStream(credits);
    Call<ManagedFetchRequest, ManagedFetchResponse> call =
        new Call<>(
            stream,
            Batch::of,
            n -> ManagedFetchRequest.newBuilder().setNumRequested(n).build(),
            commit -> ManagedFetchRequest.newBuilder().setCommitReplayIdRequest(commit).build());
    stream.call = call;
    stub.managedSubscribe(call);
    synchronized (stream) {
      call.send(
          ManagedFetchRequest.newBuilder()
              .setDeveloperName(developerName)
              .setNumRequested(credits)
              .build());
    }
    return stream;
  }

  /**
   * The next message, or empty when none came within {@code silence} (the watchdog's bound). Events
   * of a response leave the queue.
   */
  public Optional<Message> next(Duration silence) throws InterruptedException {
    Message m = queue.poll(silence.toMillis(), TimeUnit.MILLISECONDS);
    if (m instanceof Response r) {
      synchronized (this) {
        queued -= r.batch().events().size();
      }
    }
    return Optional.ofNullable(m);
  }

  /**
   * Tops the credits up to the target once at most half are outstanding and at most half wait in
   * the queue; call after the taken events were handed downstream (and after keepalives).
   */
  public synchronized void topUp() {
    if (!closed && outstanding <= credits / 2 && queued <= credits / 2) {
      int more = credits - outstanding;
      outstanding = credits;
      call.topUp(more);
    }
  }

  /** On the gRPC thread: a response arrived; it is queued, and the credits topped up if due. */
  private synchronized void arrived(Batch batch) {
    int events = batch.events().size();
    outstanding -= events;
    queued += events;
    queue.add(new Response(batch));
    topUp();
  }

  /**
   * Commits {@code replayId} on the server (ManagedSubscribe only); the answer arrives later as a
   * {@link Batch#commit()}, possibly merged with other commits' answers.
   *
   * @return the commit's request id
   */
  public synchronized String commit(ByteString replayId) {
    String id = "commit-" + ++commits;
    if (!closed) {
      call.commit(
          CommitReplayRequest.newBuilder().setCommitRequestId(id).setReplayId(replayId).build());
    }
    return id;
  }

  /** Credits outstanding by the client's count. */
  public synchronized int outstanding() {
    return outstanding;
  }

  /** Cancels the call (stop, watchdog, or a failure found while decoding). */
  @Override
  public synchronized void close() {
    // Under the lock: gRPC's call may not be cancelled while another thread sends on it (a
    // response arriving tops the credits up on gRPC's thread), nor sent on after.
    closed = true;
    call.cancel();
  }

  /** One RPC's side of the stream: its request and response messages. */
  private static final class Call<Q, R> implements ClientResponseObserver<Q, R> {

    private final TopicStream stream;
    private final Function<R, Batch> batches;
    private final IntFunction<Q> topUps;
    private final Function<CommitReplayRequest, Q> commits;
    private volatile ClientCallStreamObserver<Q> requests;

    /**
     * @param commits the commit request; null when the RPC has none (Subscribe)
     */
    Call(
        TopicStream stream,
        Function<R, Batch> batches,
        IntFunction<Q> topUps,
        Function<CommitReplayRequest, Q> commits) {
      this.stream = stream;
      this.batches = batches;
      this.topUps = topUps;
      this.commits = commits;
    }

    void topUp(int more) {
      send(topUps.apply(more));
    }

    void commit(CommitReplayRequest request) {
      if (commits == null) {
        throw new UnsupportedOperationException("only a managed subscription commits");
      }
      send(commits.apply(request));
    }

    void send(Q request) {
      try {
        requests.onNext(request);
      } catch (RuntimeException e) { // the call already ended: its end is queued
        stream.queue.add(new Ended(Optional.empty()));
      }
    }

    void cancel() {
      ClientCallStreamObserver<Q> r = requests;
      if (r != null) {
        r.cancel("closed by the client", null);
      }
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<Q> requestStream) {
      requests = requestStream;
    }

    @Override
    public void onNext(R value) {
      stream.arrived(batches.apply(value));
    }

    @Override
    public void onError(Throwable t) {
      Status status = Status.fromThrowable(t);
      stream.queue.add(
          new Ended(Optional.of(StreamFailure.of(status, Status.trailersFromThrowable(t)))));
    }

    @Override
    public void onCompleted() {
      stream.queue.add(new Ended(Optional.empty()));
    }
  }
}
