package io.sf2loki.state.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.state.s3.S3Fixture.Fault;
import io.sf2loki.state.s3.S3Fixture.FaultInjector;
import io.sf2loki.state.s3.S3Fixture.Point;
import io.sf2loki.tck.FakeTerm;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Conditional writes, lost responses, conflicts and transient faults against s3proxy. */
class S3ConditionalWriteTest {

  private static S3Fixture s3;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final List<Duration> sleeps = new ArrayList<>();
  private String key;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = new S3Fixture();
  }

  @AfterAll
  static void stopS3() throws Exception {
    s3.stop();
  }

  @BeforeEach
  void freshKey(TestInfo info) {
    key = "it/" + info.getDisplayName().replaceAll("[^A-Za-z]", "") + "/state.json";
    s3.faults.clear();
  }

  private S3CheckpointStore store() {
    RetryPolicy recording =
        new RetryPolicy(4, Duration.ofMillis(100), Duration.ofSeconds(2), sleeps::add, () -> 0.5);
    StoreEnvironment env = new StoreEnvironment(false, Clock.systemUTC(), metrics);
    return new S3CheckpointStore(s3.client, S3Fixture.BUCKET, key, recording, env);
  }

  private double counter(String name, String... tags) {
    var c = metrics.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void createUsesIfNoneMatchAndReplaceUsesTheEtagOfTheLastResponse() {
    S3CheckpointStore store = store();
    store.commit(Map.of("k", "1"), Fence.NONE);
    store.commit(Map.of("k", "2"), Fence.NONE);
    assertThat(s3.faults.requests)
        .filteredOn(r -> r.startsWith("PutObject"))
        .hasSize(2)
        .satisfies(puts -> assertThat(puts.get(0)).isEqualTo("PutObject If-None-Match *"))
        .satisfies(puts -> assertThat(puts.get(1)).startsWith("PutObject If-Match "));
  }

  @Test
  void lostResponseOfAnAppliedPutIsRecognisedAsOurOwnWrite() {
    S3CheckpointStore store = store();
    store.commit(Map.of("k", "1"), new FakeTerm("a", 1));
    s3.faults.add(new Fault("PutObject", Point.AFTER_APPLY, FaultInjector.reset()));
    store.commit(Map.of("k", "2"), new FakeTerm("a", 1));
    assertThat(store().load("k")).contains("2");
    assertThat(counter("sf2loki_checkpoint_write_retries", "reason", "transient")).isEqualTo(1);
    assertThat(counter("sf2loki_checkpoint_commit_failures")).isZero();
  }

  @Test
  void lostResponseOfTheCreatingPutIsRecognisedToo() {
    s3.faults.add(new Fault("PutObject", Point.AFTER_APPLY, FaultInjector.reset()));
    store().commit(Map.of("k", "1"), Fence.NONE);
    assertThat(store().load("k")).contains("1");
  }

  @Test
  void claimWhoseResponseIsLostIsRefusedBecauseARivalWouldHaveWrittenTheSameBytes() {
    S3CheckpointStore store = store();
    store.commit(Map.of("k", "1"), new FakeTerm("a", 1));
    s3.faults.add(new Fault("PutObject", Point.AFTER_APPLY, FaultInjector.reset()));
    assertThatThrownBy(() -> store.claimEpoch(new FakeTerm("b", 2)))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("cannot be confirmed");
    assertThat(store().persistedEpoch()).hasValue(2);
  }

  @Test
  void transientFailuresAreRetriedWithJitteredBackoff() {
    s3.faults.add(new Fault("PutObject", Point.BEFORE_SEND, FaultInjector.status(503, "SlowDown")));
    s3.faults.add(new Fault("PutObject", Point.BEFORE_SEND, FaultInjector.reset()));
    store().commit(Map.of("k", "1"), Fence.NONE);
    assertThat(store().load("k")).contains("1");
    assertThat(sleeps)
        .hasSize(2)
        .allSatisfy(d -> assertThat(d).isBetween(Duration.ofMillis(100), Duration.ofSeconds(2)));
  }

  @Test
  void transientFailuresGiveUpAfterFourAttempts() {
    for (int i = 0; i < 4; i++) {
      s3.faults.add(
          new Fault("GetObject", Point.BEFORE_SEND, FaultInjector.status(500, "InternalError")));
    }
    S3CheckpointStore store = store();
    assertThatThrownBy(() -> store.commit(Map.of("k", "1"), Fence.NONE))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("s3://" + S3Fixture.BUCKET + "/" + key)
        .hasMessageContaining("after 4 attempts");
    assertThat(sleeps).hasSize(3);
    assertThat(counter("sf2loki_checkpoint_commit_failures", "reason", "unavailable")).isEqualTo(1);
  }

  @Test
  void clientErrorsOtherThan412AreNotRetried() {
    s3.faults.add(
        new Fault("PutObject", Point.BEFORE_SEND, FaultInjector.status(403, "AccessDenied")));
    assertThatThrownBy(() -> store().commit(Map.of("k", "1"), Fence.NONE))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("403")
        .hasMessageContaining("not retried");
    assertThat(sleeps).isEmpty();
  }

  @Test
  void concurrentWriterWithEqualEpochIsMergedAndRetried() {
    S3CheckpointStore leader = store();
    leader.commit(Map.of("a", "1"), new FakeTerm("a", 4));
    store().commit(Map.of("b", "operator"), Fence.NONE);
    leader.commit(Map.of("a", "2"), new FakeTerm("a", 4));
    assertThat(store().loadAll())
        .containsOnly(
            Map.entry("a", "2"), Map.entry("b", "operator"), Map.entry("__fence_epoch__", "4"));
    assertThat(counter("sf2loki_checkpoint_write_retries", "reason", "conflict")).isEqualTo(1);
  }

  @Test
  void concurrentWriterWithHigherEpochFencesUsAfterThe412() {
    S3CheckpointStore stale = store();
    stale.commit(Map.of("a", "1"), new FakeTerm("old", 4));
    store().commit(Map.of("a", "new"), new FakeTerm("new", 5));
    assertThatThrownBy(() -> stale.commit(Map.of("a", "2"), new FakeTerm("old", 4)))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("epoch 5");
    assertThat(store().load("a")).contains("new");
    assertThat(counter("sf2loki_checkpoint_fenced_commits")).isEqualTo(1);
  }
}
