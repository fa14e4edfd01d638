package io.sf2loki.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.FencedException;
import io.sf2loki.testkit.TestTiming;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CommitterTest {

  final FakeCheckpointStore store = new FakeCheckpointStore();
  final FakeTerm term = new FakeTerm(3);
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final PipelineMetrics metrics = new PipelineMetrics(registry);
  final Committer committer =
      new Committer(store, term, metrics, Map.of("a", "0"), Runs.noEgress(metrics));

  @Test
  void commitsAllKeysInOneFencedWrite() {
    committer.commit(Map.of("a", "1", "b", "2"));

    assertThat(store.commits()).containsExactly(Map.of("a", "1", "b", "2"));
    assertThat(store.loadAll()).containsEntry("__fence_epoch__", "3");
    assertThat(committer.position("b")).contains("2");
  }

  @Test
  void blockedKeysAreNeverCommittedAgainInTheRun() {
    committer.block(Set.of("a"));

    committer.commit(Map.of("a", "9", "b", "2"));
    committer.commit(Map.of("a", "10"));

    assertThat(store.commits()).containsExactly(Map.of("b", "2"));
    assertThat(committer.position("a")).contains("0");
  }

  @Test
  void closedCommitterWritesNothing() {
    committer.close();

    assertThat(committer.commit(Map.of("a", "1"))).isFalse();
    assertThat(store.commits()).isEmpty();
  }

  @Test
  void fencedWriteIsCountedAndRethrown() {
    term.revoke();

    assertThatThrownBy(() -> committer.commit(Map.of("a", "1")))
        .isInstanceOf(FencedException.class);
    assertThat(registry.counter("sf2loki_checkpoint_commits", "outcome", "fenced").count())
        .isEqualTo(1);
  }

  @Test
  void aPositionIsReadWithoutWaitingForAWriteInFlight() throws Exception {
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    store.beforeCommit(
        updates -> {
          writing.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    CompletableFuture<Boolean> commit =
        CompletableFuture.supplyAsync(() -> committer.commit(Map.of("a", "1")));
    try {
      assertThat(writing.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      // a Pub/Sub source asks on every message; it must not stall behind the store's round trip
      assertThat(
              CompletableFuture.supplyAsync(() -> committer.position("a"))
                  .get(TestTiming.seconds(5).toMillis(), TimeUnit.MILLISECONDS))
          .contains("0");
    } finally {
      release.countDown();
    }
    assertThat(commit.get(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(committer.position("a")).contains("1");
  }

  @Test
  void commitsArrivingDuringAWriteGoTogetherInTheNextOne() throws Exception {
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    store.beforeCommit(
        updates -> {
          writing.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    CompletableFuture<Boolean> bulk =
        CompletableFuture.supplyAsync(() -> committer.commit(Map.of("elf", "1")));
    assertThat(writing.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    CompletableFuture<Boolean> streaming =
        CompletableFuture.supplyAsync(() -> committer.commit(Map.of("login", "7")));
    CompletableFuture<Boolean> cdc =
        CompletableFuture.supplyAsync(() -> committer.commit(Map.of("account", "3")));
    await().atMost(TestTiming.seconds(10)).until(() -> committer.waitingCommits() == 2);

    release.countDown();

    for (CompletableFuture<Boolean> c : List.of(bulk, streaming, cdc)) {
      assertThat(c.get(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    }
    assertThat(store.commits())
        .containsExactly(Map.of("elf", "1"), Map.of("login", "7", "account", "3"));
    assertThat(committer.position("login")).contains("7");
  }

  @Test
  void aCommitCarriedByAFailedWriteFailsToo() throws Exception {
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    store.beforeCommit(
        updates -> {
          if (updates.containsKey("elf")) {
            writing.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
    CompletableFuture<Boolean> bulk =
        CompletableFuture.supplyAsync(() -> committer.commit(Map.of("elf", "1")));
    assertThat(writing.await(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    CompletableFuture<Boolean> streaming =
        CompletableFuture.supplyAsync(() -> committer.commit(Map.of("login", "7")));
    CompletableFuture<Boolean> cdc =
        CompletableFuture.supplyAsync(() -> committer.commit(Map.of("account", "3")));
    await().atMost(TestTiming.seconds(10)).until(() -> committer.waitingCommits() == 2);
    term.revoke(); // the next write (the two waiting commits) is fenced

    release.countDown();

    assertThat(bulk.get(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    for (CompletableFuture<Boolean> c : List.of(streaming, cdc)) {
      assertThatThrownBy(() -> c.get(TestTiming.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(FencedException.class);
    }
    assertThat(committer.position("login")).isEmpty();
  }
}
