package io.sf2loki.testkit.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import com.salesforce.eventbus.protobuf.TopicRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class FakePubSubTest extends FakePubSubFixture {

  @Test
  void deliversNoMoreEventsThanRequestedAndReportsTheRemainingCredits() throws Exception {
    start(FakePubSub.builder().keepalive(Duration.ofSeconds(30)));
    publishLogins(10);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 4);
    List<FetchResponse> got = responsesUntil(s, 4);
    assertThat(got.stream().mapToInt(FetchResponse::getEventsCount).sum()).isEqualTo(4);
    assertThat(got.get(got.size() - 1).getPendingNumRequested()).isZero();
    assertThat(s.arrived.poll(200, TimeUnit.MILLISECONDS)).isNull();
    s.request(3);
    assertThat(responsesUntil(s, 3).stream().mapToInt(FetchResponse::getEventsCount).sum())
        .isEqualTo(3);
  }

  @Test
  void anEventItsPublisherEncodedIsServedAsTheSameEventPublishedFromFields() throws Exception {
    start(FakePubSub.builder().keepalive(Duration.ofSeconds(30)));
    Map<String, Object> fields = Map.of("Username", "pre-encoded", "EventDate", 1_700_000_000_000L);
    fake.publish(LOGIN, fields);
    fake.publishEncoded(LOGIN, TopicSchemas.encode(TopicSchemas.loginEventStream(), fields));
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 2);
    List<ConsumerEvent> events = new ArrayList<>();
    responsesUntil(s, 2).forEach(r -> events.addAll(r.getEventsList()));
    assertThat(events).hasSize(2);
    assertThat(events.get(1).getEvent().getPayload())
        .isEqualTo(events.get(0).getEvent().getPayload());
    assertThat(events.get(1).getEvent().getSchemaId())
        .isEqualTo(events.get(0).getEvent().getSchemaId());
    assertThat(events.get(1).getEvent().getId()).isNotEqualTo(events.get(0).getEvent().getId());
  }

  @Test
  void capsOutstandingCreditsAtOneHundredInsteadOfRejecting() throws Exception {
    start(FakePubSub.builder().keepalive(Duration.ofSeconds(30)));
    publishLogins(150);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 150);
    assertThat(responsesUntil(s, 100).stream().mapToInt(FetchResponse::getEventsCount).sum())
        .isEqualTo(100);
    assertThat(s.arrived.poll(200, TimeUnit.MILLISECONDS)).isNull();
    assertThat(fake.maxOutstanding()).isEqualTo(100);
  }

  @Test
  void sendsAKeepaliveWithTheLatestPositionWhileCreditsWait() throws Exception {
    start(FakePubSub.builder().keepalive(Duration.ofMillis(100)));
    publishLogins(1);
    ByteString advanced = fake.advancePosition(LOGIN);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 5);
    assertThat(s.response().getEventsCount()).isEqualTo(1);
    FetchResponse keepalive = s.response();
    assertThat(keepalive.getEventsCount()).isZero();
    assertThat(keepalive.getLatestReplayId()).isEqualTo(advanced);
    assertThat(keepalive.getPendingNumRequested()).isEqualTo(4);
  }

  @Test
  void customResumesStrictlyAfterTheGivenReplayId() throws Exception {
    start(FakePubSub.builder().keepalive(Duration.ofSeconds(30)));
    publishLogins(2);
    ByteString second = fake.publish(LOGIN, Map.of("Username", "third"));
    publishLogins(1);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.CUSTOM, second, 10);
    FetchResponse r = s.response();
    assertThat(r.getEvents(0).getReplayId()).isNotEqualTo(second);
    assertThat(r.getEventsCount()).isEqualTo(1);
  }

  @Test
  void anUnknownReplayIdFailsAfterTheFirstRequestWithTheCorruptedTrailer() throws Exception {
    start(FakePubSub.builder());
    RawClient.Stream s =
        client.subscribe(
            LOGIN,
            ReplayPreset.CUSTOM,
            ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, 9}),
            5);
    StatusRuntimeException e = s.error();
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(RawClient.errorCode(e))
        .isEqualTo("sfdc.platform.eventbus.grpc.subscription.fetch.replayid.corrupted");
    assertThat(e.getStatus().getDescription()).contains("rpcId: ");
  }

  @Test
  void customWithoutAReplayIdFailsValidation() throws Exception {
    start(FakePubSub.builder());
    StatusRuntimeException e =
        client.subscribe(LOGIN, ReplayPreset.CUSTOM, ByteString.EMPTY, 5).error();
    assertThat(RawClient.errorCode(e)).endsWith("subscription.fetch.replayid.validation.failed");
  }

  @Test
  void anEventPastRetentionCanNoLongerBeResumedFrom() throws Exception {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    start(FakePubSub.builder().clock(clock).retention(Duration.ofHours(72)));
    ByteString old = fake.publish(LOGIN, Map.of("Username", "old"));
    clock.advance(Duration.ofHours(73));
    StatusRuntimeException e = client.subscribe(LOGIN, ReplayPreset.CUSTOM, old, 5).error();
    assertThat(RawClient.errorCode(e)).endsWith("replayid.corrupted");
    assertThat(fake.stored(LOGIN)).isZero();
  }

  @Test
  void aCallWithoutTheAuthHeadersIsUnauthenticated() throws Exception {
    start(FakePubSub.builder().tokens(t -> t.equals("good")));
    assertThatThrownBy(
            () -> client.blocking.getTopic(TopicRequest.newBuilder().setTopicName(LOGIN).build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
              assertThat(RawClient.errorCode(e))
                  .isEqualTo("sfdc.platform.eventbus.grpc.service.auth.error");
            });
  }

  @Test
  void anAuthErrorMidStreamRevokesTheTokenItUsed() throws Exception {
    start(FakePubSub.builder());
    fake.inject(PubSubFault.stream(PubSubFault.StreamKind.AUTH_ERROR, 2));
    publishLogins(5);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 10);
    responsesUntil(s, 2);
    assertThat(s.error().getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThatThrownBy(
            () -> client.blocking.getSchema(SchemaRequest.newBuilder().setSchemaId("x").build()))
        .hasMessageContaining("UNAUTHENTICATED");
  }

  @Test
  void aResetStreamFaultCutsTheStreamWithoutATrailerAfterItsEvents() throws Exception {
    start(FakePubSub.builder());
    fake.inject(PubSubFault.stream(PubSubFault.StreamKind.RST_STREAM, 3));
    publishLogins(10);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 10);
    assertThat(responsesUntil(s, 3).stream().mapToInt(FetchResponse::getEventsCount).sum())
        .isEqualTo(3);
    StatusRuntimeException e = s.error();
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(RawClient.errorCode(e)).isNull();
  }

  @Test
  void aStalledStreamSendsNothingNotEvenKeepalives() throws Exception {
    start(FakePubSub.builder().keepalive(Duration.ofMillis(50)));
    fake.inject(PubSubFault.stream(PubSubFault.StreamKind.STALL, 0));
    publishLogins(3);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 10);
    assertThat(s.arrived.poll(400, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void aStreamWithNoCreditsAndNoRequestsEndsAfterTheIdleTimeout() throws Exception {
    start(FakePubSub.builder().idleTimeout(Duration.ofMillis(200)));
    publishLogins(1);
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 1);
    assertThat(s.response().getEventsCount()).isEqualTo(1);
    assertThat(s.next()).isEqualTo("completed");
  }

  @Test
  void theIdleTimeoutRunsFromTheResponseThatUsedUpTheCreditsNotFromTheRequest() throws Exception {
    Duration idle = TestTiming.millis(300);
    start(FakePubSub.builder().idleTimeout(idle).keepalive(Duration.ofSeconds(30)));
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 1);
    while (fake.fetches().isEmpty()) { // the quiet period counts from the fake's receipt
      assertThat(s.arrived.poll(5, TimeUnit.MILLISECONDS)).isNull();
    }
    // the one credit stays unused for longer than the timeout: a quiet topic
    assertThat(s.arrived.poll(idle.toMillis() * 2, TimeUnit.MILLISECONDS)).isNull();
    publishLogins(1);
    assertThat(s.response().getEventsCount()).isEqualTo(1);
    s.request(1);
    publishLogins(1);
    assertThat(s.response().getEventsCount()).isEqualTo(1);
  }

  @Test
  void eventsPublishedAfterAnEvolutionNameTheNewSchemaAndTheTopicReportsIt() throws Exception {
    start(FakePubSub.builder());
    Schema v2 =
        new Schema.Parser()
            .parse(
                TopicSchemas.loginEventStream().toString().replace("\"Browser\"", "\"Platform\""));
    fake.publish(LOGIN, Map.of("Username", "before"));
    fake.evolveSchema(LOGIN, v2);
    fake.publish(LOGIN, Map.of("Username", "after"));
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 2);
    List<String> ids = new ArrayList<>();
    responsesUntil(s, 2)
        .forEach(r -> r.getEventsList().forEach(e -> ids.add(e.getEvent().getSchemaId())));
    assertThat(ids)
        .containsExactly(
            TopicSchemas.schemaId(TopicSchemas.loginEventStream()), TopicSchemas.schemaId(v2));
    assertThat(
            client
                .blocking
                .getTopic(TopicRequest.newBuilder().setTopicName(LOGIN).build())
                .getSchemaId())
        .isEqualTo(TopicSchemas.schemaId(v2));
  }

  @Test
  void aChangedTopicNameOnTheStreamIsAnInvalidArgument() throws Exception {
    start(FakePubSub.builder());
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.LATEST, ByteString.EMPTY, 1);
    s.requests.onNext(
        com.salesforce.eventbus.protobuf.FetchRequest.newBuilder()
            .setTopicName(FakePubSub.ORDER)
            .setNumRequested(1)
            .build());
    assertThat(RawClient.errorCode(s.error())).endsWith("subscription.fetch.topic.mismatch");
  }

  @Test
  void getSchemaServesEachEventsWriterSchemaAcrossAnEvolution() throws Exception {
    start(FakePubSub.builder());
    fake.publish(LOGIN, Map.of("Username", "before"));
    Schema v2 =
        new Schema.Parser()
            .parse(
                TopicSchemas.loginEventStream().toString().replace("\"Browser\"", "\"Platform\""));
    fake.evolveSchema(LOGIN, v2);
    fake.publish(LOGIN, Map.of("Username", "after"));
    RawClient.Stream s = client.subscribe(LOGIN, ReplayPreset.EARLIEST, ByteString.EMPTY, 2);
    List<String> ids = new ArrayList<>();
    responsesUntil(s, 2)
        .forEach(r -> r.getEventsList().forEach(e -> ids.add(e.getEvent().getSchemaId())));
    assertThat(ids).doesNotHaveDuplicates();
    for (String id : ids) {
      String json =
          client
              .blocking
              .getSchema(SchemaRequest.newBuilder().setSchemaId(id).build())
              .getSchemaJson();
      assertThat(new Schema.Parser().parse(json).getName()).isEqualTo("LoginEventStream");
    }
  }

  @Test
  void getTopicReportsWhetherTheCallerMaySubscribe() throws Exception {
    start(FakePubSub.builder());
    fake.canSubscribe(FakePubSub.REPORT, false);
    var info =
        client.blocking.getTopic(TopicRequest.newBuilder().setTopicName(FakePubSub.REPORT).build());
    assertThat(info.getCanSubscribe()).isFalse();
    assertThat(info.getTenantGuid()).isEqualTo(fake.orgId());
    StatusRuntimeException e =
        client.subscribe(FakePubSub.REPORT, ReplayPreset.LATEST, ByteString.EMPTY, 1).error();
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
  }
}
