package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
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

  /** An open Subscribe call: what arrived, and the request side. */
  static final class Stream implements StreamObserver<FetchResponse> {
    final BlockingQueue<Object> arrived = new LinkedBlockingQueue<>();
    StreamObserver<FetchRequest> requests;

    @Override
    public void onNext(FetchResponse value) {
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

    FetchResponse response() throws InterruptedException {
      Object o = next();
      if (o instanceof FetchResponse r) {
        return r;
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

    void request(int n) {
      requests.onNext(FetchRequest.newBuilder().setNumRequested(n).build());
    }
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
