package io.sf2loki.daemon.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.pubsub.RecordedFetch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file_lease pair streaming Pub/Sub events from the fake Pub/Sub into the fake Loki while the
 * leader dies (kill -9) or loses its lease (paused past the ttl): the standby resumes right after
 * the last committed replay id, no event is lost, the only duplicates are the last batch Loki
 * accepted but the old leader did not commit, and the old leader commits nothing once fenced.
 */
class PubSubFailoverIT {

  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration TTL = Duration.ofSeconds(3);
  private static final Duration RENEW = Duration.ofSeconds(1);

  /** Entries of a batch at most: the bound of what one unacknowledged batch can duplicate. */
  private static final int BATCH = 50;

  @TempDir Path dir;
  private HaCluster cluster;
  private FakePubSub pubsub;
  // Read by the checkpoint monitor's thread, which starts before the pair (and so before the
  // publisher): a keepalive position committed first maps to no event, like any unknown id.
  private volatile LoginPublisher publisher;

  @BeforeEach
  void start() throws Exception {
    cluster = HaCluster.start(dir);
    pubsub = FakePubSub.builder().standardTopics().start();
  }

  @AfterEach
  void stop() {
    System.out.println(cluster.logs()); // kept in the surefire output for diagnosis
    if (publisher != null) {
      publisher.close();
    }
    cluster.close();
    pubsub.close();
  }

  private String sources() {
    return """
        sources.pubsub { enabled = true, endpoint = "%s", plaintext = true
                         topics = ["%s"], replay_preset = EARLIEST
                         reconnect_base = 50ms, reconnect_max = 500ms }
        sink.loki.batch.max_entries = %d
        """
        .formatted(pubsub.target(), LoginPublisher.TOPIC, BATCH);
  }

  private int eventIndex(String checkpoint) {
    LoginPublisher current = publisher;
    return current == null ? -1 : current.indexOf(checkpoint);
  }

  /** A pair streaming: 50 events a second published, the first 100 shipped by the leader. */
  private List<DaemonProcess> streamingPair() throws Exception {
    List<DaemonProcess> pair = cluster.pair(TTL, RENEW, sources());
    publisher = new LoginPublisher(pubsub, 5, Duration.ofMillis(100), 5_000);
    await("the leader streams")
        .atMost(TestTiming.seconds(30))
        .pollInterval(POLL)
        .until(
            () ->
                LoginPublisher.events(cluster.loki().lines()).size() >= 100
                    && cluster.state().containsKey(LoginPublisher.KEY));
    return pair;
  }

  /** Publishing goes on for {@code more} events, then stops; every event must reach Loki. */
  private void everyEventArrives(int more) throws Exception {
    int target = publisher.published() + more;
    await("more events published")
        .atMost(TestTiming.seconds(30))
        .pollInterval(POLL)
        .until(() -> publisher.published() >= target);
    int published = publisher.stop();
    await("every published event is in Loki")
        .atMost(TestTiming.seconds(40))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> LoginPublisher.events(cluster.loki().lines()).size() == published);
    assertThat(LoginPublisher.events(cluster.loki().lines()))
        .containsExactlyElementsOf(IntStream.range(0, published).boxed().toList());
  }

  private int committedEvent() {
    String committed = cluster.state().get(LoginPublisher.KEY);
    int index = publisher.indexOf(committed);
    assertThat(index)
        .as("the committed position %s names a published event", committed)
        .isNotNegative();
    return index;
  }

  /**
   * The events sent to Loki twice are at least one and all of the batch held in Loki at the
   * failover: right after the position committed then, at most a batch of them; Loki dropped each
   * second copy as an exact duplicate.
   */
  private void onlyTheUnacknowledgedBatchWasSentTwice(int committed, long duplicatesBefore) {
    List<Integer> twice = LoginPublisher.sentTwice(cluster.loki().pushes());
    long dropped = cluster.loki().stats().duplicates() - duplicatesBefore;
    System.out.printf(
        "failover at committed event %d: events %s sent twice, %d duplicates dropped by Loki%n",
        committed, twice, dropped);
    assertThat(twice)
        .isNotEmpty()
        .hasSizeLessThanOrEqualTo(BATCH)
        .allMatch(i -> i > committed && i <= committed + BATCH);
    assertThat(LoginPublisher.sends(cluster.loki().pushes()).values()).allMatch(n -> n <= 2);
    assertThat(dropped).isEqualTo(twice.size());
  }

  private RecordedFetch firstSubscribeAfter(int fetches) {
    return pubsub.fetches().stream()
        .skip(fetches)
        .filter(RecordedFetch::first)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aKilledLeadersStandbyResumesRightAfterTheCommittedReplayIdLosingNothing() throws Exception {
    try (CheckpointMonitor monitor =
        new CheckpointMonitor(cluster::state, "pubsub:", this::eventIndex)) {
      List<DaemonProcess> pair = streamingPair();
      DaemonProcess leader = pair.get(0);
      DaemonProcess standby = pair.get(1);

      // Killed while Loki holds a push of its: Loki accepts that batch, nobody commits it.
      cluster.holdNextPush(Duration.ofSeconds(2));
      leader.kill9(); // returns once the process is gone: nothing of it commits after
      int committed = committedEvent();
      int fetchesAtKill = pubsub.fetches().size();
      long duplicatesBefore = cluster.loki().stats().duplicates();

      await("the standby takes over within ttl + renew_interval + 2s")
          .atMost(TTL.plus(RENEW).plus(TestTiming.seconds(2)))
          .pollInterval(POLL)
          .until(() -> standby.readyz().ready());
      await("the standby subscribes")
          .atMost(TestTiming.seconds(20))
          .pollInterval(POLL)
          .until(
              () -> pubsub.fetches().stream().skip(fetchesAtKill).anyMatch(RecordedFetch::first));
      RecordedFetch resume = firstSubscribeAfter(fetchesAtKill);
      assertThat(resume.preset()).isEqualTo("CUSTOM");
      assertThat(resume.replayId()).isEqualTo(publisher.replayId(committed));

      everyEventArrives(100);
      onlyTheUnacknowledgedBatchWasSentTwice(committed, duplicatesBefore);
      assertThat(monitor.regressions()).isEmpty();
      assertThat(standby.isAlive()).isTrue();
    }
  }

  @Test
  void aLeaderThatLostItsLeaseMidStreamIsFencedAndCommitsNothing() throws Exception {
    List<DaemonProcess> pair = streamingPair();
    DaemonProcess paused = pair.get(0);
    DaemonProcess successor = pair.get(1);
    long pausedEpoch = cluster.persistedEpoch().orElseThrow();
    long duplicatesBefore = cluster.loki().stats().duplicates();

    // Paused while Loki holds a push of its: it resumes with a delivered batch to commit.
    cluster.holdNextPush(Duration.ofSeconds(6));
    paused.sigstop();
    int fetchesAtPause = pubsub.fetches().size();
    int committedAtPause = committedEvent();
    await("the standby takes over while the leader is paused beyond the ttl")
        .atMost(TTL.plus(RENEW).plus(TestTiming.seconds(10)))
        .pollInterval(POLL)
        .until(() -> successor.readyz().ready());
    long successorEpoch = cluster.persistedEpoch().orElseThrow();
    assertThat(successorEpoch).isGreaterThan(pausedEpoch);
    await("the successor subscribes")
        .atMost(TestTiming.seconds(20))
        .pollInterval(POLL)
        .until(() -> pubsub.fetches().stream().skip(fetchesAtPause).anyMatch(RecordedFetch::first));
    RecordedFetch resume = firstSubscribeAfter(fetchesAtPause);
    assertThat(resume.preset()).isEqualTo("CUSTOM");
    assertThat(resume.replayId()).isEqualTo(publisher.replayId(committedAtPause));

    try (CheckpointMonitor monitor =
        new CheckpointMonitor(cluster::state, "pubsub:", this::eventIndex)) {
      await("the successor commits past the paused leader's position")
          .atMost(TestTiming.seconds(20))
          .pollInterval(POLL)
          .until(() -> committedEvent() > committedAtPause + BATCH);
      paused.sigcont();
      await("the resumed leader's commit is fenced and it stands by")
          .atMost(TestTiming.seconds(20))
          .pollInterval(POLL)
          .until(paused::fencedAndStandingBy);
      everyEventArrives(100);
      // A commit of the old leader would move the position back to its own, older one.
      assertThat(monitor.regressions()).isEmpty();
      assertThat(cluster.persistedEpoch()).hasValue(successorEpoch);
      assertThat(paused.isAlive()).isTrue();
      assertThat(paused.readyz().standby()).isTrue();
    }
    onlyTheUnacknowledgedBatchWasSentTwice(committedAtPause, duplicatesBefore);
  }
}
