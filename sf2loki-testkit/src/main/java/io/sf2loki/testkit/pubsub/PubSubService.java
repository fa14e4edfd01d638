package io.sf2loki.testkit.pubsub;

import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ManagedFetchRequest;
import com.salesforce.eventbus.protobuf.ManagedFetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.SchemaInfo;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import com.salesforce.eventbus.protobuf.TopicInfo;
import com.salesforce.eventbus.protobuf.TopicRequest;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import java.util.UUID;

/** The {@code eventbus.v1.PubSub} methods the fake serves, and its header check. */
final class PubSubService extends PubSubGrpc.PubSubImplBase {

  static final Context.Key<String> TOKEN = Context.key("accesstoken");
  private static final Metadata.Key<String> ACCESS_TOKEN =
      Metadata.Key.of("accesstoken", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> INSTANCE_URL =
      Metadata.Key.of("instanceurl", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> TENANT_ID =
      Metadata.Key.of("tenantid", Metadata.ASCII_STRING_MARSHALLER);

  private final FakePubSub fake;

  PubSubService(FakePubSub fake) {
    this.fake = fake;
  }

  /** Requires the three lowercase headers on every call and a live token; records the token. */
  ServerInterceptor authentication() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String token = headers.get(ACCESS_TOKEN);
        String instance = headers.get(INSTANCE_URL);
        String tenant = headers.get(TENANT_ID);
        fake.countCall(call.getMethodDescriptor().getBareMethodName());
        if (token == null
            || instance == null
            || !fake.orgId().equals(tenant)
            || !fake.acceptsToken(token)) {
          var error = PubSubErrors.auth();
          call.close(error.getStatus(), error.getTrailers());
          return new ServerCall.Listener<>() {};
        }
        return Contexts.interceptCall(
            Context.current().withValue(TOKEN, token), call, headers, next);
      }
    };
  }

  @Override
  public StreamObserver<FetchRequest> subscribe(StreamObserver<FetchResponse> responses) {
    return new SubscribeCall(
        fake, TOKEN.get(), (ServerCallStreamObserver<FetchResponse>) responses);
  }

  @Override
  public StreamObserver<ManagedFetchRequest> managedSubscribe(
      StreamObserver<ManagedFetchResponse> responses) {
    return new ManagedSubscribeCall(
        fake, TOKEN.get(), (ServerCallStreamObserver<ManagedFetchResponse>) responses);
  }

  @Override
  public void getSchema(SchemaRequest request, StreamObserver<SchemaInfo> responses) {
    Optional<PubSubFault.Schema> fault = fake.takeSchemaFault();
    if (fault.isPresent()) {
      responses.onError(
          switch (fault.get().kind()) {
            case UNAVAILABLE -> PubSubErrors.serviceUnavailable();
            case UNAUTHENTICATED -> PubSubErrors.auth();
            case NOT_FOUND -> PubSubErrors.schemaNotFound(request.getSchemaId());
          });
      return;
    }
    Optional<String> json = fake.schemaJson(request.getSchemaId());
    if (json.isEmpty()) {
      responses.onError(PubSubErrors.schemaNotFound(request.getSchemaId()));
      return;
    }
    responses.onNext(
        SchemaInfo.newBuilder()
            .setSchemaId(request.getSchemaId())
            .setSchemaJson(json.get())
            .setRpcId(UUID.randomUUID().toString())
            .build());
    responses.onCompleted();
  }

  @Override
  public void getTopic(TopicRequest request, StreamObserver<TopicInfo> responses) {
    Optional<TopicLog> topic = fake.topicLog(request.getTopicName());
    if (topic.isEmpty()) {
      responses.onError(PubSubErrors.topicNotFound(request.getTopicName()));
      return;
    }
    responses.onNext(
        TopicInfo.newBuilder()
            .setTopicName(request.getTopicName())
            .setTenantGuid(fake.orgId())
            .setCanPublish(false)
            .setCanSubscribe(topic.get().canSubscribe())
            .setSchemaId(topic.get().schemaId())
            .setRpcId(UUID.randomUUID().toString())
            .build());
    responses.onCompleted();
  }
}
