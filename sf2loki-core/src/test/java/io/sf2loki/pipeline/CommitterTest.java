package io.sf2loki.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.FencedException;
import java.util.Map;
import java.util.Set;
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
}
