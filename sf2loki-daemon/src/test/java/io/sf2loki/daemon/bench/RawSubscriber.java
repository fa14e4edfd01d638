package io.sf2loki.daemon.bench;

import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.sf2loki.testkit.loki.FakeLoki;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * The floor: the least a client can do with the fake Pub/Sub. One Subscribe stream from EARLIEST
 * with 100 credits, topped up as soon as 50 arrived; the k-th event received is event k (the topic
 * holds only the benchmark's events, in order). Each event's arrival is recorded as it is received;
 * optionally each response's events are then pushed at once, unbatched, as one JSON push to a fake
 * Loki (whose own {@code onStored} records them), without waiting for the answer: each push is on
 * its own, so an event pays its delivery and one push, never a push ahead of it (a push waiting for
 * the fake behind a drain's must not hold up the next response's, or the floor is a queue). At most
 * {@value #MAX_PUSHES_IN_FLIGHT} pushes are in flight, each on a connection of its own: unbounded,
 * at 10,000 events/s their connections overran the fake Loki's accept backlog and reset the
 * connections of sf2loki's pushes too.
 */
final class RawSubscriber implements StreamObserver<FetchResponse>, AutoCloseable {

  /** The access token it presents. */
  static final String TOKEN = "floor-token";

  /** The {@code source} label of its pushes. */
  static final String SOURCE = "floor";

  private final ManagedChannel channel;
  private final FreshnessRecorder delivered;
  private final Optional<FakeLoki> pushTo;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final StreamObserver<FetchRequest> requests;
  private long received;
  private int sinceRequest;
  private volatile Throwable failure;

  static final int MAX_PUSHES_IN_FLIGHT = 8;
  private final Semaphore pushes = new Semaphore(MAX_PUSHES_IN_FLIGHT);

  RawSubscriber(
      String target,
      String orgId,
      String topic,
      FreshnessRecorder delivered,
      Optional<FakeLoki> pushTo) {
    this.delivered = delivered;
    this.pushTo = pushTo;
    this.channel = NettyChannelBuilder.forTarget(target).usePlaintext().build();
    Metadata headers = new Metadata();
    headers.put(key("accesstoken"), TOKEN);
    headers.put(key("instanceurl"), "https://acme.my.salesforce.com");
    headers.put(key("tenantid"), orgId);
    this.requests =
        PubSubGrpc.newStub(channel)
            .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
            .subscribe(this);
    requests.onNext(
        FetchRequest.newBuilder()
            .setTopicName(topic)
            .setReplayPreset(ReplayPreset.EARLIEST)
            .setNumRequested(100)
            .build());
  }

  private static Metadata.Key<String> key(String name) {
    return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
  }

  @Override
  public void onNext(FetchResponse response) {
    long now = System.nanoTime();
    int n = response.getEventsCount();
    long first = received;
    for (int i = 0; i < n; i++) {
      delivered.arrived(received++, now);
    }
    sinceRequest += n;
    if (sinceRequest >= 50) { // before the push: a slow push must not starve the stream of credits
      requests.onNext(FetchRequest.newBuilder().setNumRequested(sinceRequest).build());
      sinceRequest = 0;
    }
    if (n > 0 && pushTo.isPresent()) {
      push(pushTo.get(), first, n);
    }
  }

  private void push(FakeLoki loki, long first, int n) {
    StringBuilder body =
        new StringBuilder("{\"streams\":[{\"stream\":{\"source\":\"" + SOURCE + "\"},");
    body.append("\"values\":[");
    long nanos = System.currentTimeMillis() * 1_000_000L;
    for (int i = 0; i < n; i++) {
      body.append(i == 0 ? "" : ",").append("[\"").append(nanos + first + i).append("\",");
      body.append("\"{\\\"EventIdentifier\\\": \\\"bench-").append(first + i).append("\\\"}\"]");
    }
    body.append("]}]}");
    pushes.acquireUninterruptibly(); // on the gRPC callback thread: the next response waits
    http.sendAsync(
            HttpRequest.newBuilder(URI.create(loki.pushUri().toString()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .whenComplete(
            (response, e) -> {
              pushes.release();
              if (e != null) {
                failure = e;
              }
            });
  }

  @Override
  public void onError(Throwable t) {
    failure = t;
  }

  @Override
  public void onCompleted() {
    failure = new IllegalStateException("the fake ended the stream");
  }

  /** Why the floor stopped early, if it did. */
  Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
