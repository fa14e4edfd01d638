package io.sf2loki.testkit.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The link in front of the fake's service, driven without a transport. */
class NetworkDelayTest {

  private final NetworkDelay link = new NetworkDelay(Duration.ofMillis(5));
  private final RecordingCall call = new RecordingCall();

  @AfterEach
  void close() {
    link.close();
  }

  @Test
  void whatTheServiceSendsReachesTheTransportInOrder() {
    ServerCall.Listener<String> listener =
        link.interceptCall(
            call,
            new Metadata(),
            (c, h) -> {
              c.sendHeaders(new Metadata());
              for (int i = 0; i < 100; i++) {
                c.sendMessage("m" + i);
              }
              c.close(Status.OK, new Metadata());
              return new ServerCall.Listener<>() {};
            });
    assertThat(listener).isNotNull();
    await().atMost(Duration.ofSeconds(5)).until(() -> call.seen.size() == 102);
    assertThat(call.seen.get(0)).isEqualTo("headers");
    assertThat(call.seen.subList(1, 101))
        .isEqualTo(java.util.stream.IntStream.range(0, 100).mapToObj(i -> "m" + i).toList());
    assertThat(call.seen.get(101)).isEqualTo("close OK");
  }

  @Test
  void aServiceThatThrowsOnARequestEndsTheCallAsGrpcWouldAfterWhatItSentBefore() {
    ServerCall.Listener<String> listener =
        link.interceptCall(
            call,
            new Metadata(),
            (ServerCall<String, String> c, Metadata h) ->
                new ServerCall.Listener<String>() {
                  @Override
                  public void onMessage(String message) {
                    c.sendMessage("answer to " + message);
                    throw new IllegalArgumentException("bad " + message);
                  }
                });
    listener.onMessage("request");
    await().atMost(Duration.ofSeconds(5)).until(() -> call.seen.size() == 2);
    assertThat(call.seen)
        .containsExactly("answer to request", "close UNKNOWN Application error processing RPC");
  }

  @Test
  void eachMessageIsTakenFromTheTransportAsItArrivesNotAsTheServiceAsksForIt() {
    ServerCall.Listener<String> listener =
        link.interceptCall(
            call,
            new Metadata(),
            (c, h) -> {
              c.request(5); // the service's own requests stay with the link
              return new ServerCall.Listener<>() {};
            });
    assertThat(call.requested).hasValue(1);
    listener.onMessage("a");
    listener.onMessage("b");
    assertThat(call.requested).as("one more per message, before its delay").hasValue(3);
  }

  /** A server call that records what reaches the transport. */
  private static final class RecordingCall extends ServerCall<String, String> {
    final List<String> seen = new CopyOnWriteArrayList<>();
    final AtomicInteger requested = new AtomicInteger();

    @Override
    public void request(int numMessages) {
      requested.addAndGet(numMessages);
    }

    @Override
    public void sendHeaders(Metadata headers) {
      seen.add("headers");
    }

    @Override
    public void sendMessage(String message) {
      seen.add(message);
    }

    @Override
    public void close(Status status, Metadata trailers) {
      seen.add(
          "close "
              + status.getCode()
              + (status.getDescription() == null ? "" : " " + status.getDescription()));
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public Attributes getAttributes() {
      return Attributes.EMPTY;
    }

    @Override
    public MethodDescriptor<String, String> getMethodDescriptor() {
      throw new UnsupportedOperationException();
    }
  }
}
