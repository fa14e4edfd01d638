package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.CommitReplayRequest;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ManagedFetchRequest;
import com.salesforce.eventbus.protobuf.ManagedFetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A bare gRPC client of the fake, so its tests see the wire as any client would. */
final class RawClient implements AutoCloseable {

  final ManagedChannel channel;
  final PubSubGrpc.PubSubBlockingStub blocking;
  final PubSubGrpc.PubSubStub async;

  RawClient(FakePubSub fake, String token) {
    channel = NettyChannelBuilder.forTarget(fake.target()).usePlaintext().build();
    Metadata headers = new Metadata();
    put(headers, "accesstoken", token);
    put(headers, "instanceurl", "https://example.my.salesforce.com");
    put(headers, "tenantid", fake.orgId());
    blocking =
        PubSubGrpc.newBlockingStub(channel)
            .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    async =
        PubSubGrpc.newStub(channel)
            .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static void put(Metadata m, String key, String value) {
    m.put(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER), value);
  }

  /** What arrived on an open call, in order: responses, an error or "completed". */
  static class Arrivals<R> implements StreamObserver<R> {
    final BlockingQueue<Object> arrived = new LinkedBlockingQueue<>();
    private final Class<R> type;

    Arrivals(Class<R> type) {
      this.type = type;
    }

    @Override
    public void onNext(R value) {
      arrived.add(value);
    }

    @Override
    public void onError(Throwable t) {
      arrived.add(t);
    }

    @Override
    public void onCompleted() {
      arrived.add("completed");
    }

    /** The next message, error or "completed" within 5 s. */
    Object next() throws InterruptedException {
      Object o = arrived.poll(5, TimeUnit.SECONDS);
      if (o == null) {
        throw new AssertionError("nothing arrived within 5 s");
      }
      return o;
    }

    R response() throws InterruptedException {
      Object o = next();
      if (type.isInstance(o)) {
        return type.cast(o);
      }
      throw new AssertionError("expected a response, got " + o);
    }

    StatusRuntimeException error() throws InterruptedException {
      Object o = next();
      if (o instanceof StatusRuntimeException e) {
        return e;
      }
      throw new AssertionError("expected an error, got " + o);
    }
  }

  /** An open Subscribe call: what arrived, and the request side. */
  static final class Stream extends Arrivals<FetchResponse> {
    StreamObserver<FetchRequest> requests;

    Stream() {
      super(FetchResponse.class);
    }

    void request(int n) {
      requests.onNext(FetchRequest.newBuilder().setNumRequested(n).build());
    }
  }

  /** An open ManagedSubscribe call: what arrived, and the request side. */
  static final class Managed extends Arrivals<ManagedFetchResponse> {
    StreamObserver<ManagedFetchRequest> requests;

    Managed() {
      super(ManagedFetchResponse.class);
    }

    void request(int n) {
      requests.onNext(ManagedFetchRequest.newBuilder().setNumRequested(n).build());
    }

    void commit(String requestId, ByteString replayId) {
      requests.onNext(
          ManagedFetchRequest.newBuilder()
              .setCommitReplayIdRequest(
                  CommitReplayRequest.newBuilder()
                      .setCommitRequestId(requestId)
                      .setReplayId(replayId))
              .build());
    }
  }

  /** Opens ManagedSubscribe on {@code first} (naming the subscription, asking credits). */
  Managed managedSubscribe(ManagedFetchRequest first) {
    Managed s = new Managed();
    s.requests = async.managedSubscribe(s);
    s.requests.onNext(first);
    return s;
  }

  /** Opens ManagedSubscribe by developer name with {@code n} credits. */
  Managed managedSubscribe(String developerName, int n) {
    return managedSubscribe(
        ManagedFetchRequest.newBuilder()
            .setDeveloperName(developerName)
            .setNumRequested(n)
            .build());
  }

  Stream subscribe(String topic, ReplayPreset preset, ByteString replayId, int n) {
    Stream s = new Stream();
    s.requests = async.subscribe(s);
    s.requests.onNext(
        FetchRequest.newBuilder()
            .setTopicName(topic)
            .setReplayPreset(preset)
            .setReplayId(replayId)
            .setNumRequested(n)
            .build());
    return s;
  }

  static String errorCode(StatusRuntimeException e) {
    return e.getTrailers() == null
        ? null
        : e.getTrailers().get(Metadata.Key.of("error-code", Metadata.ASCII_STRING_MARSHALLER));
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
