package io.sf2loki.testkit.pubsub;

import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A link's one-way delay in front of the fake's service: what the client sends reaches the service,
 * and what the service sends (headers, messages, the close with its trailers) reaches the
 * transport, {@code oneWay} later and in the order sent. A top-up and the events it buys then take
 * a round trip of twice that, as over a real link to Salesforce; on bare loopback a round trip
 * takes microseconds, so a subscriber's credit window never limits it and its CPU is all that does.
 *
 * <p>One thread carries both directions of every call: with one delay for all, a scheduled executor
 * runs tasks in the order submitted, which keeps each call's messages in order. What is the
 * transport's own is not delayed: the call's start (and so a refusal by the authentication check,
 * which arrives after one delay instead of a round trip) and a cancel by the client, which reaches
 * the service at once, before requests of that client still on the link; the service's listener
 * then runs on the link's thread and gRPC's, which the fake's calls tolerate (their state is
 * synchronized and a request after the end is ignored).
 */
final class NetworkDelay implements ServerInterceptor, AutoCloseable {

  private final long oneWayNanos;
  private final ScheduledExecutorService link;

  NetworkDelay(Duration oneWay) {
    if (oneWay.isNegative() || oneWay.isZero()) {
      throw new IllegalArgumentException("a network delay must be positive: " + oneWay);
    }
    this.oneWayNanos = oneWay.toNanos();
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "fake-pubsub-link");
              t.setDaemon(true);
              return t;
            });
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.link = executor;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    ServerCall<Q, R> delayed =
        new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void request(int numMessages) {
            // The link takes each message from the transport as it arrives (below). The service's
            // request for the next one, made as it handles this one a delay later, would let one
            // message through the link per delay, where a network carries them together.
          }

          @Override
          public void sendHeaders(Metadata h) {
            later(() -> super.sendHeaders(h));
          }

          @Override
          public void sendMessage(R message) {
            later(() -> super.sendMessage(message));
          }

          @Override
          public void close(Status status, Metadata trailers) {
            later(() -> super.close(status, trailers));
          }
        };
    ServerCall.Listener<Q> listener = next.startCall(delayed, headers);
    call.request(1);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onMessage(Q message) {
        call.request(1);
        later(() -> failing(delayed, () -> super.onMessage(message)));
      }

      @Override
      public void onHalfClose() {
        later(() -> failing(delayed, super::onHalfClose));
      }
    };
  }

  /**
   * Runs the service's handling of a request off gRPC's own threads, where an exception would have
   * closed the call; on the link's thread it would only end a scheduled task unseen. So the call
   * ends as gRPC ends it, with UNKNOWN, after what the service sent before.
   */
  private static void failing(ServerCall<?, ?> call, Runnable handling) {
    try {
      handling.run();
    } catch (RuntimeException e) {
      call.close(
          Status.UNKNOWN.withDescription("Application error processing RPC").withCause(e),
          new Metadata());
    }
  }

  private void later(Runnable action) {
    try {
      link.schedule(() -> dropIfRefused(action), oneWayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) { // the fake is closing: nothing is delivered any more
      return;
    }
  }

  private static void dropIfRefused(Runnable action) {
    try {
      action.run();
    } catch (IllegalStateException e) { // "call is closed": a failing request closed it meanwhile
      return;
    }
  }

  @Override
  public void close() {
    link.shutdownNow();
  }
}
