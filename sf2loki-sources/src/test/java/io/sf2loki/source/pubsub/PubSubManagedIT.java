package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.google.protobuf.ByteString;
import io.sf2loki.salesforce.testing.LogCapture;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.ManagedEventSubscription;
import io.sf2loki.testkit.pubsub.ManagedEventSubscription.Replay;
import io.sf2loki.testkit.pubsub.ManagedEventSubscription.State;
import io.sf2loki.testkit.pubsub.ManagedSubscriptions;
import io.sf2loki.testkit.pubsub.PubSubFault;
import io.sf2loki.testkit.pubsub.RecordedCommit;
import io.sf2loki.testkit.pubsub.RecordedManagedFetch;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A topic streamed with ManagedSubscribe: events arrive as with Subscribe, the server's position
 * only follows what was committed locally (Loki accepted it and everything before), a restart
 * resumes after the server's position, and the subscription's refusals are named.
 */
class PubSubManagedIT extends PubSubTestBase {

  private static final String NAME = "Login_Managed";
  private static final String MANAGED =
      TOPICS + ", managed_subscriptions { \"/event/LoginEventStream\" = " + NAME + " }";

  private void harness(ManagedEventSubscription subscription) throws Exception {
    harness(FakePubSub.builder().managedSubscription(subscription));
  }

  private void harness() throws Exception {
    harness(ManagedEventSubscription.running(NAME, LOGIN, Replay.EARLIEST));
  }

  private ManagedSubscriptions managed() {
    return h.pubsub.managedSubscriptions();
  }

  private Optional<ByteString> serverPosition() {
    return managed().committed(NAME);
  }

  private double streamErrors(String code) {
    var c =
        h.metrics
            .find("sf2loki_pubsub_stream_errors")
            .tag("topic", LOGIN)
            .tag("code", code)
            .counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void deliversTheEventsAndCommitsTheLastAcceptedPositionOnTheServer() throws Exception {
    harness();
    List<ByteString> ids = h.publish(0, 3);
    try (PubSubHarness.Run run = h.start(MANAGED, Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 3);
      assertThat(PubSubHarness.identifiers(run.ctx.lines()))
          .containsExactly("ev-0", "ev-1", "ev-2");
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> serverPosition().equals(Optional.of(ids.get(2))));
      assertThat(run.ctx.committed())
          .containsEntry("pubsub:" + LOGIN, ReplayIds.encode(ids.get(2)));
    }
    assertThat(h.pubsub.calls("ManagedSubscribe")).isEqualTo(1);
    assertThat(h.pubsub.calls("Subscribe")).isZero();
  }

  @Test
  void nothingLokiHasNotAcceptedIsCommittedOnTheServer() throws Exception {
    harness();
    List<ByteString> accepted = h.publish(0, 4);
    try (PubSubHarness.Run run = h.start(MANAGED, Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 4);
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> serverPosition().equals(Optional.of(accepted.get(3))));
      run.ctx.stopCommitting(); // Loki stops accepting: the next events stay unacknowledged
      h.publish(4, 3);
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 7);
      int commits = managed().commits().size();
      await("several commit polls, none moving the server past the accepted id")
          .during(Duration.ofMillis(600))
          .atMost(TestTiming.seconds(5))
          .until(() -> managed().commits().size() == commits);
      assertThat(serverPosition()).contains(accepted.get(3));
    }
  }

  @Test
  void aRestartResumesRightAfterTheServerCommittedPosition() throws Exception {
    harness();
    List<ByteString> accepted = h.publish(0, 5);
    Map<String, String> local;
    try (PubSubHarness.Run run = h.start(MANAGED, Map.of())) {
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> serverPosition().equals(Optional.of(accepted.get(4))));
      run.ctx.stopCommitting();
      h.publish(5, 3);
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 8);
      local = run.ctx.committed();
    }
    h.publish(8, 2);
    try (PubSubHarness.Run run = h.start(MANAGED, local)) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 5);
      assertThat(PubSubHarness.identifiers(run.ctx.lines()))
          .containsExactly("ev-5", "ev-6", "ev-7", "ev-8", "ev-9");
    }
  }

  @Test
  void aSecondActiveStreamIsCountedNamedOnceAndRetriedUntilTheFirstEnds() throws Exception {
    harness();
    h.publish(0, 1);
    PubSubHarness.Run first = h.start(MANAGED, Map.of());
    try (LogCapture log = new LogCapture(ManagedSubscription.class)) {
      await().atMost(TestTiming.seconds(10)).until(() -> first.ctx.lines().size() == 1);
      try (PubSubHarness.Run second = h.start(MANAGED, Map.of())) {
        String code = "managed.subscription.already.active";
        await().atMost(TestTiming.seconds(10)).until(() -> streamErrors(code) >= 3);
        assertThat(log.errors()).hasSize(1);
        assertThat(log.errors().get(0)).contains(LOGIN, NAME, "another client");
        assertThat(h.counter("sf2loki_pubsub_reconnects", LOGIN)).isGreaterThanOrEqualTo(2);
        assertThat(second.ctx.lines()).isEmpty();

        first.close();
        h.publish(1, 1);
        await().atMost(TestTiming.seconds(10)).until(() -> second.ctx.lines().size() == 1);
        assertThat(PubSubHarness.identifiers(second.ctx.lines())).containsExactly("ev-1");
      }
    } finally {
      first.close();
    }
  }

  @Test
  void aSubscriptionNotInStateRunIsAPermanentErrorNamingItUntilItRuns() throws Exception {
    harness(ManagedEventSubscription.running(NAME, LOGIN, Replay.EARLIEST).withState(State.STOP));
    h.publish(0, 1);
    try (LogCapture log = new LogCapture(ManagedSubscription.class);
        PubSubHarness.Run run = h.start(MANAGED, Map.of())) {
      await().atMost(TestTiming.seconds(10)).until(() -> !log.errors().isEmpty());
      assertThat(log.errors().get(0)).contains(LOGIN, NAME, "State RUN", "STOP");
      assertThat(streamErrors("managed.subscription.config.stopped")).isGreaterThanOrEqualTo(1);

      managed().put(ManagedEventSubscription.running(NAME, LOGIN, Replay.EARLIEST));
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 1);
    }
  }

  @Test
  void aRefusedCommitIsCountedAndLoggedOnceAndALaterCommitLands() throws Exception {
    harness();
    h.pubsub.inject(new PubSubFault.Commit(2));
    try (LogCapture log = new LogCapture(ManagedSubscription.class);
        PubSubHarness.Run run = h.start(MANAGED, Map.of())) {
      for (int i = 0; i < 3; i++) {
        ByteString id = h.publish(i, 1).get(0);
        await().atMost(TestTiming.seconds(10)).until(() -> commitsOf(id) == 1);
      }
      assertThat(managed().commits())
          .extracting(RecordedCommit::accepted)
          .containsExactly(false, false, true);
      await()
          .atMost(TestTiming.seconds(10))
          .until(() -> h.counter("sf2loki_pubsub_commit_errors", LOGIN) == 2);
      assertThat(log.messages(Level.ERROR)).hasSize(1);
      assertThat(log.errors().get(0)).contains(LOGIN, NAME, "COMMIT");
      assertThat(run.ctx.lines()).hasSize(3);
    }
  }

  @Test
  void aCommitLostWithItsStreamIsSentAgainOnTheNextStream() throws Exception {
    harness();
    h.pubsub.inject(PubSubFault.stream(PubSubFault.StreamKind.STALL, 1)); // takes no commit either
    ByteString id = h.publish(0, 1).get(0);
    // The next stream commits before it reads what the server sends again, so the server's
    // position lands before the second ev-0 reaches the context: hold that emit until the commit
    // is seen, as a loaded machine may, so the test never mistakes the one for the other.
    StreamingContext ctx = new StreamingContext(Map.of());
    ctx.holdAfter(1);
    try (PubSubHarness.Run run = h.start(MANAGED + ", stall_timeout = 500ms", ctx)) {
      await().atMost(TestTiming.seconds(10)).until(() -> serverPosition().equals(Optional.of(id)));
      int stalled = managed().fetches().get(0).stream();
      assertThat(managed().fetches())
          .filteredOn(f -> f.commitReplayId().equals(id))
          .extracting(RecordedManagedFetch::stream)
          .as("sent on the stalled stream, then again on a later one")
          .startsWith(stalled)
          .anyMatch(stream -> stream > stalled);
      assertThat(managed().commits())
          .as("the stalled stream answered no commit; a later one took it")
          .allSatisfy(c -> assertThat(c.stream()).isGreaterThan(stalled))
          .anySatisfy(c -> assertThat(c.accepted()).isTrue());
      ctx.release();
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 2);
      assertThat(PubSubHarness.identifiers(run.ctx.lines())).containsExactly("ev-0", "ev-0");
      // At least the first stream stalled; a keepalive late under load may add another.
      assertThat(h.counter("sf2loki_pubsub_stream_stalls", LOGIN)).isGreaterThanOrEqualTo(1);
    }
  }

  private long commitsOf(ByteString id) {
    return managed().commits().stream().filter(c -> c.replayId().equals(id)).count();
  }

  @Test
  void startsAtTheSubscriptionsDefaultReplayWhenNothingIsCommittedWhateverIsStoredLocally()
      throws Exception {
    harness(ManagedEventSubscription.running(NAME, LOGIN, Replay.EARLIEST));
    List<ByteString> ids = h.publish(0, 3);
    Map<String, String> local = Map.of("pubsub:" + LOGIN, ReplayIds.encode(ids.get(1)));
    try (PubSubHarness.Run run = h.start(MANAGED, local)) {
      await().atMost(TestTiming.seconds(10)).until(() -> run.ctx.lines().size() == 3);
      assertThat(PubSubHarness.identifiers(run.ctx.lines()))
          .containsExactly("ev-0", "ev-1", "ev-2");
    }
  }
}
