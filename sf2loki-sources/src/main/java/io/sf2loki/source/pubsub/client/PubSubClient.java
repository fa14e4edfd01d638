package io.sf2loki.source.pubsub.client;

import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import com.salesforce.eventbus.protobuf.TopicInfo;
import com.salesforce.eventbus.protobuf.TopicRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.source.pubsub.decode.SchemaCache;
import io.sf2loki.source.pubsub.replay.ReplayStart;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One run's channel to the Pub/Sub API: TLS (plaintext only for a local fake), HTTP/2 keepalive
 * pings every 30 s (10 s timeout, also without calls), an inbound message bound that fits a full
 * response of 1 MB events, and per-call credentials from the shared token provider. Created lazily:
 * no I/O until the first call. Thread-safe.
 */
public final class PubSubClient implements AutoCloseable {

  /** The largest event Salesforce delivers. */
  public static final int MAX_EVENT_BYTES = 1 << 20;

  private final ManagedChannel channel;
  private final TokenCredentials credentials;
  private final PubSubGrpc.PubSubStub async;
  private final PubSubGrpc.PubSubBlockingStub blocking;
  private final Duration callTimeout;

  /**
   * @param endpoint {@code host:port}
   * @param plaintext no TLS (a local fake only)
   * @param credits the most events one response can hold
   * @param tenantId the org id for {@code tenantid}, asked on each call
   * @param callTimeout the deadline of GetSchema and GetTopic
   */
  public PubSubClient(
      String endpoint,
      boolean plaintext,
      int credits,
      TokenProvider tokens,
      Supplier<String> tenantId,
      Duration callTimeout) {
    NettyChannelBuilder builder =
        NettyChannelBuilder.forTarget(endpoint)
            .keepAliveTime(30, TimeUnit.SECONDS)
            .keepAliveTimeout(10, TimeUnit.SECONDS)
            .keepAliveWithoutCalls(true)
            .maxInboundMessageSize(credits * (MAX_EVENT_BYTES + 1024) + MAX_EVENT_BYTES);
    if (plaintext) {
      builder.usePlaintext();
    } else {
      builder.useTransportSecurity();
    }
    this.channel = builder.build();
    this.credentials = new TokenCredentials(tokens, tenantId);
    // The streams' callbacks run on the transport's own thread, not handed to gRPC's executor:
    // they only queue a response, count credits and may send a top-up, never block, and the hop
    // to another thread was part of every round of credits (docs/performance.md §4, seventh
    // round). The call credentials' token is then minted on the thread that opens the stream.
    this.async =
        PubSubGrpc.newStub(channel).withCallCredentials(credentials).withExecutor(Runnable::run);
    this.blocking = PubSubGrpc.newBlockingStub(channel).withCallCredentials(credentials);
    this.callTimeout = callTimeout;
  }

  /** Opens a Subscribe stream on {@code topic}. */
  public TopicStream subscribe(String topic, ReplayStart start, int credits) {
    return TopicStream.subscribe(async, topic, start, credits);
  }

  /** Opens a ManagedSubscribe stream on the managed subscription {@code developerName}. */
  public TopicStream managedSubscribe(String developerName, int credits) {
    return TopicStream.managed(async, developerName, credits);
  }

  /** GetTopic. */
  public TopicInfo topic(String topic) throws PubSubCallException {
    try {
      return deadline().getTopic(TopicRequest.newBuilder().setTopicName(topic).build());
    } catch (StatusRuntimeException e) {
      throw new PubSubCallException("GetTopic " + topic, e);
    }
  }

  /** GetSchema, for the schema cache: an unknown id is distinguished from a failed call. */
  public SchemaCache.Fetcher schemaFetcher() {
    return id -> {
      try {
        return deadline()
            .getSchema(SchemaRequest.newBuilder().setSchemaId(id).build())
            .getSchemaJson();
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
          throw new SchemaCache.UnknownSchemaException("schema " + id + " is unknown", e);
        }
        throw new PubSubCallException("GetSchema " + id, e);
      }
    };
  }

  /** Discards the token of the latest call, so the next call mints a fresh one. */
  public void invalidateToken() {
    credentials.invalidateLastUsed();
  }

  private PubSubGrpc.PubSubBlockingStub deadline() {
    return blocking.withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
