package io.sf2loki.source.pubsub.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ProducerEvent;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.sf2loki.source.pubsub.replay.ReplayStart;
import io.sf2loki.testkit.TestTiming;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Who tops the credits up: the gRPC thread as a response arrives while few events wait untaken, the
 * topic thread otherwise; never while more than half the credits' worth wait, so a topic thread
 * that stops taking stops the server. The server here is scripted: it sends exactly the responses a
 * test asks for and records every request.
 */
@Timeout(30)
class TopicStreamCreditsTest {

  static final int CREDITS = 10;

  final List<FetchRequest> requests = new CopyOnWriteArrayList<>();
  volatile StreamObserver<FetchResponse> responses;
  Server server;
  ManagedChannel channel;
  TopicStream stream;
  long replayId;

  @BeforeEach
  void start() throws Exception {
    server =
        NettyServerBuilder.forPort(0)
            .addService(
                new PubSubGrpc.PubSubImplBase() {
                  @Override
                  public StreamObserver<FetchRequest> subscribe(StreamObserver<FetchResponse> out) {
                    responses = out;
                    return new StreamObserver<>() {
                      @Override
                      public void onNext(FetchRequest r) {
                        requests.add(r);
                      }

                      @Override
                      public void onError(Throwable t) {}

                      @Override
                      public void onCompleted() {}
                    };
                  }
                })
            .build()
            .start();
    channel = NettyChannelBuilder.forAddress("localhost", server.getPort()).usePlaintext().build();
    stream =
        TopicStream.subscribe(
            PubSubGrpc.newStub(channel), "/event/T", ReplayStart.earliest(), CREDITS);
    await().atMost(TestTiming.seconds(10)).until(() -> requests.size() == 1);
  }

  @AfterEach
  void stop() throws Exception {
    stream.close();
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  /** Sends a response of {@code events} events and waits until the client queued it. */
  void send(int events, int pending) {
    FetchResponse.Builder r = FetchResponse.newBuilder().setPendingNumRequested(pending);
    for (int i = 0; i < events; i++) {
      r.addEvents(
          ConsumerEvent.newBuilder()
              .setReplayId(ByteString.copyFromUtf8(Long.toString(++replayId)))
              .setEvent(ProducerEvent.newBuilder().setId("e" + replayId).setSchemaId("s")));
    }
    r.setLatestReplayId(ByteString.copyFromUtf8(Long.toString(replayId)));
    responses.onNext(r.build());
  }

  List<Integer> topUps() {
    return requests.stream().skip(1).map(FetchRequest::getNumRequested).toList();
  }

  /** Takes {@code n} responses, as the topic thread does: every arrival before them is handled. */
  void take(int n) throws InterruptedException {
    for (int i = 0; i < n; i++) {
      assertThat(stream.next(Duration.ofSeconds(5))).get().isInstanceOf(TopicStream.Response.class);
    }
  }

  @Test
  void theFirstRequestAsksForAllTheCredits() {
    assertThat(requests.get(0).getNumRequested()).isEqualTo(CREDITS);
    assertThat(requests.get(0).getTopicName()).isEqualTo("/event/T");
  }

  @Test
  void aResponseArrivingWhileFewEventsWaitTopsTheCreditsUpWithoutTheTopicThread() {
    send(5, 5);

    await().atMost(TestTiming.seconds(10)).until(() -> topUps().equals(List.of(5)));
    assertThat(stream.outstanding()).isEqualTo(CREDITS);
  }

  @Test
  void noCreditsAreAddedWhileMoreThanHalfTheCreditsWaitUntaken() throws Exception {
    send(5, 5); // topped up on arrival: 10 outstanding again, 5 waiting
    send(4, 6);
    send(6, 0); // 15 waiting untaken, none outstanding
    take(3);
    assertThat(stream.outstanding()).isZero();

    stream.topUp(); // the topic thread, once nothing waits: requests reach the server in order

    await().atMost(TestTiming.seconds(10)).until(() -> topUps().size() == 2);
    assertThat(topUps()).containsExactly(5, CREDITS);
  }

  @Test
  void theTopicThreadTopsUpOnceItTookTheEventsThatWaited() throws Exception {
    send(10, 0); // all at once: none outstanding and 10 waiting, so no top-up on arrival
    take(1);

    stream.topUp();

    await().atMost(TestTiming.seconds(10)).until(() -> topUps().size() == 1);
    assertThat(topUps()).containsExactly(CREDITS);
  }

  @Test
  void aTopUpWaitsUntilAtMostHalfTheCreditsAreOutstanding() throws Exception {
    send(4, 6);
    take(1);
    stream.topUp(); // 6 outstanding: not yet

    send(1, 5); // now 5: topped up on arrival, the first top-up the server sees

    await().atMost(TestTiming.seconds(10)).until(() -> topUps().size() == 1);
    assertThat(topUps()).containsExactly(5);
  }
}
