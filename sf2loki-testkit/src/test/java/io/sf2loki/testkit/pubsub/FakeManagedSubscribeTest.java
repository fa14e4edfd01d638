package io.sf2loki.testkit.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.CommitReplayResponse;
import com.salesforce.eventbus.protobuf.ErrorCode;
import com.salesforce.eventbus.protobuf.ManagedFetchRequest;
import com.salesforce.eventbus.protobuf.ManagedFetchResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sf2loki.testkit.pubsub.ManagedEventSubscription.Replay;
import io.sf2loki.testkit.pubsub.ManagedEventSubscription.State;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** ManagedSubscribe on the fake, seen through a bare gRPC client. */
class FakeManagedSubscribeTest extends FakePubSubFixture {

  private static final String NAME = "Login_Managed";

  private void start(FakePubSub.Builder builder, ManagedEventSubscription subscription)
      throws Exception {
    fake = builder.standardTopics().managedSubscription(subscription).start();
    client = new RawClient(fake, "tok");
  }

  private void start(Replay defaultReplay) throws Exception {
    start(
        FakePubSub.builder().keepalive(Duration.ofSeconds(30)),
        ManagedEventSubscription.running(NAME, LOGIN, defaultReplay));
  }

  private List<ByteString> publishLogins(int from, int n) {
    List<ByteString> ids = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      ids.add(fake.publish(LOGIN, Map.of("Username", "u" + i + "@example.com")));
    }
    return ids;
  }

  /** The replay ids of the events that arrive until {@code n} did; commit answers are skipped. */
  private static List<ByteString> eventsUntil(RawClient.Managed s, int n)
      throws InterruptedException {
    List<ByteString> ids = new ArrayList<>();
    while (ids.size() < n) {
      s.response().getEventsList().forEach(e -> ids.add(e.getReplayId()));
    }
    return ids;
  }

  private static CommitReplayResponse commitAnswer(RawClient.Managed s)
      throws InterruptedException {
    while (true) {
      ManagedFetchResponse r = s.response();
      if (r.hasCommitResponse()) {
        return r.getCommitResponse();
      }
    }
  }

  @Test
  void startsAtEarliestWhileNothingIsCommittedWhenThatIsItsDefaultReplay() throws Exception {
    start(Replay.EARLIEST);
    List<ByteString> published = publishLogins(0, 3);
    assertThat(eventsUntil(client.managedSubscribe(NAME, 10), 3)).isEqualTo(published);
  }

  @Test
  void startsAtTheTipWhileNothingIsCommittedWhenItsDefaultReplayIsLatest() throws Exception {
    start(
        FakePubSub.builder().keepalive(Duration.ofMillis(50)),
        ManagedEventSubscription.running(NAME, LOGIN, Replay.LATEST));
    publishLogins(0, 3);
    RawClient.Managed s = client.managedSubscribe(NAME, 10);
    assertThat(s.response().getEventsCount()).as("a keepalive: the stream started").isZero();
    List<ByteString> fresh = publishLogins(3, 2);
    assertThat(eventsUntil(s, 2)).isEqualTo(fresh);
  }

  @Test
  void deliversNoMoreEventsThanRequestedAsSubscribeDoes() throws Exception {
    start(Replay.EARLIEST);
    publishLogins(0, 10);
    RawClient.Managed s = client.managedSubscribe(NAME, 4);
    assertThat(eventsUntil(s, 4)).hasSize(4);
    assertThat(s.arrived.poll(200, TimeUnit.MILLISECONDS)).isNull();
    s.request(3);
    assertThat(eventsUntil(s, 3)).hasSize(3);
    assertThat(fake.maxOutstanding()).isEqualTo(4);
  }

  @Test
  void answersACommitInBandAndTheNextStreamResumesRightAfterIt() throws Exception {
    start(Replay.EARLIEST);
    List<ByteString> published = publishLogins(0, 5);
    RawClient.Managed s = client.managedSubscribe(NAME, 10);
    eventsUntil(s, 5);
    s.commit("c1", published.get(2));
    CommitReplayResponse answer = commitAnswer(s);
    assertThat(answer.getCommitRequestId()).isEqualTo("c1");
    assertThat(answer.getReplayId()).isEqualTo(published.get(2));
    assertThat(answer.hasError()).isFalse();
    assertThat(fake.managedSubscriptions().committed(NAME)).contains(published.get(2));
    s.requests.onCompleted();
    await().atMost(Duration.ofSeconds(5)).until(() -> fake.liveStreams() == 0);

    RawClient.Managed again = client.managedSubscribe(NAME, 10);
    assertThat(eventsUntil(again, 2)).containsExactly(published.get(3), published.get(4));
  }

  @Test
  void commitsSentTogetherAreAnsweredForTheLastOfThem() throws Exception {
    start(Replay.EARLIEST);
    List<ByteString> published = publishLogins(0, 3);
    RawClient.Managed s = client.managedSubscribe(NAME, 10);
    eventsUntil(s, 3);
    s.commit("c1", published.get(0));
    s.commit("c2", published.get(1));
    s.commit("c3", published.get(2));
    CommitReplayResponse last = commitAnswer(s);
    while (!last.getCommitRequestId().equals("c3")) {
      last = commitAnswer(s); // answers may merge several commits: none is for a later one
    }
    assertThat(last.getReplayId()).isEqualTo(published.get(2));
    assertThat(fake.managedSubscriptions().committed(NAME)).contains(published.get(2));
  }

  @Test
  void aCommitOfAnIdTheTopicDoesNotHoldIsRefusedInBandAndKeepsThePosition() throws Exception {
    start(Replay.EARLIEST);
    List<ByteString> published = publishLogins(0, 2);
    RawClient.Managed s = client.managedSubscribe(NAME, 10);
    eventsUntil(s, 2);
    s.commit("c1", published.get(0));
    commitAnswer(s);
    s.commit("c2", ByteString.copyFrom(new byte[] {1, 2, 3}));
    CommitReplayResponse refused = commitAnswer(s);
    assertThat(refused.getError().getCode()).isEqualTo(ErrorCode.COMMIT);
    assertThat(refused.getError().getMsg()).isNotBlank();
    assertThat(fake.managedSubscriptions().committed(NAME)).contains(published.get(0));
    assertThat(fake.managedSubscriptions().commits())
        .extracting(RecordedCommit::accepted)
        .containsExactly(true, false);
  }

  @Test
  void aCommitFaultRefusesTheNextCommitInBand() throws Exception {
    start(Replay.EARLIEST);
    List<ByteString> published = publishLogins(0, 1);
    fake.inject(new PubSubFault.Commit(1));
    RawClient.Managed s = client.managedSubscribe(NAME, 10);
    eventsUntil(s, 1);
    s.commit("c1", published.get(0));
    assertThat(commitAnswer(s).getError().getCode()).isEqualTo(ErrorCode.COMMIT);
    assertThat(fake.managedSubscriptions().committed(NAME)).isEmpty();
    s.commit("c2", published.get(0));
    assertThat(commitAnswer(s).hasError()).isFalse();
  }

  @Test
  void aSecondActiveStreamOnTheSameSubscriptionIsRejectedUntilTheFirstEnds() throws Exception {
    start(Replay.EARLIEST);
    publishLogins(0, 1);
    RawClient.Managed first = client.managedSubscribe(NAME, 10);
    eventsUntil(first, 1); // it holds the subscription
    StatusRuntimeException e = client.managedSubscribe(NAME, 10).error();
    assertThat(RawClient.errorCode(e))
        .isEqualTo("sfdc.platform.eventbus.grpc.managed.subscription.already.active");
    assertThat(e.getStatus().getDescription()).contains(NAME, "rpcId: ");
    String id = fake.managedSubscriptions().id(NAME);
    StatusRuntimeException byId =
        client
            .managedSubscribe(
                ManagedFetchRequest.newBuilder().setSubscriptionId(id).setNumRequested(1).build())
            .error();
    assertThat(RawClient.errorCode(byId)).endsWith("managed.subscription.already.active");

    first.requests.onCompleted();
    await().atMost(Duration.ofSeconds(5)).until(() -> fake.liveStreams() == 0);
    publishLogins(1, 1);
    assertThat(eventsUntil(client.managedSubscribe(NAME, 10), 1)).hasSize(1);
  }

  @Test
  void aSubscriptionWhoseStateIsNotRunIsRefused() throws Exception {
    start(
        FakePubSub.builder(),
        ManagedEventSubscription.running(NAME, LOGIN, Replay.EARLIEST).withState(State.STOP));
    StatusRuntimeException e = client.managedSubscribe(NAME, 10).error();
    assertThat(RawClient.errorCode(e))
        .isEqualTo("sfdc.platform.eventbus.grpc.managed.subscription.config.stopped");
    assertThat(e.getStatus().getDescription()).contains(NAME, "STOP");

    fake.managedSubscriptions().put(ManagedEventSubscription.running(NAME, LOGIN, Replay.EARLIEST));
    publishLogins(0, 1);
    assertThat(eventsUntil(client.managedSubscribe(NAME, 10), 1)).hasSize(1);
  }

  @Test
  void anUnknownSubscriptionIsNotFound() throws Exception {
    start(Replay.EARLIEST);
    StatusRuntimeException e = client.managedSubscribe("Nope", 10).error();
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(RawClient.errorCode(e)).endsWith("managed.subscription.not.found");
  }

  @Test
  void aCommittedIdPastRetentionRestartsAtTheErrorRecoveryReplay() throws Exception {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    start(
        FakePubSub.builder().clock(clock).retention(Duration.ofHours(72)),
        ManagedEventSubscription.running(NAME, LOGIN, Replay.LATEST)
            .withErrorRecoveryReplay(Replay.EARLIEST));
    ByteString old = publishLogins(0, 1).get(0);
    RawClient.Managed s = client.managedSubscribe(NAME, 10);
    s.commit("c1", old);
    commitAnswer(s);
    s.requests.onCompleted();
    await().atMost(Duration.ofSeconds(5)).until(() -> fake.liveStreams() == 0);
    clock.advance(Duration.ofHours(73));
    List<ByteString> retained = publishLogins(1, 2);

    assertThat(eventsUntil(client.managedSubscribe(NAME, 10), 2)).isEqualTo(retained);
  }
}
