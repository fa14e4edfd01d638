package io.sf2loki.state.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreAccessDeniedException;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.spi.StoreUnsafeException;
import io.sf2loki.tck.FakeTerm;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * How a {@link ConditionalCheckpointStore} uses its object backend's conditional writes, run
 * against each backend's real wire protocol (S3 through s3proxy, GCS through the testkit's fake):
 * create only if absent and replace only the version last read, recognise our own write when its
 * response was lost (but refuse a claim it cannot confirm), retry transient failures with the
 * jittered backoff of its {@link RetryPolicy} and give up after its attempts, never retry other
 * client errors, merge and retry after losing a race to an equal epoch, and stop fenced after
 * losing it to a higher one, counting each outcome in the store's metrics.
 *
 * <p>These are rules of sf2loki's own object stores (their shared internals, metrics and retry
 * policy), not of the {@code CheckpointStore} SPI, so the contract lives here and not in the
 * sf2loki-tck kit. A backend's test extends it and injects each fault with its protocol's means.
 */
public abstract class ConditionalWriteContract {

  /** Every wait of the retry policy, recorded instead of slept. */
  protected final List<Duration> sleeps = new ArrayList<>();

  /** The stores' metrics. */
  protected final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  /** The object name of the current test. */
  protected String object;

  /**
   * A new store on {@code object} whose retry policy is {@code retry}: retries off in the client,
   * so every failure reaches the store.
   */
  protected abstract ConditionalCheckpointStore newStore(
      String object, RetryPolicy retry, StoreEnvironment environment);

  /** The store's location for {@code object} ({@code s3://bucket/key}, {@code gs://...}). */
  protected abstract String location(String object);

  /** Clears the faults and recorded requests of the previous test. */
  protected abstract void resetFaults();

  /** The preconditions of the writes of {@link #object} so far, oldest first. */
  protected abstract List<Precondition> writePreconditions();

  /** The version ({@code ETag}, generation) {@link #object} has now. */
  protected abstract String currentVersion();

  /** The next write of {@link #object} is applied but its response is lost (a reset). */
  protected abstract void loseTheResponseOfTheNextWrite();

  /** The next {@code count} writes fail transiently (503, 500, a reset) before being sent. */
  protected abstract void failNextWritesTransiently(int count);

  /** The next {@code count} reads fail transiently (500, 503) before being sent. */
  protected abstract void failNextReadsTransiently(int count);

  /** The next write is refused with 403. */
  protected abstract void forbidTheNextWrite();

  /**
   * A store as the launchers create it: it runs the {@link ConditionalWriteProbe} before its first
   * write.
   */
  protected abstract ConditionalCheckpointStore newProbingStore(
      String object, RetryPolicy retry, StoreEnvironment environment);

  /**
   * Turns the endpoint into one that accepts conditional headers and ignores them (the fault
   * "ignores conditional headers"), until the next test.
   */
  protected abstract void ignoreConditionalHeaders();

  private StoreEnvironment singleInstance() {
    return new StoreEnvironment(true, Clock.systemUTC(), metrics);
  }

  /** A write's precondition as seen on the wire. */
  public record Precondition(String kind, String version) {
    /** {@code If-None-Match: *}, {@code ifGenerationMatch=0}. */
    public static Precondition absent() {
      return new Precondition("absent", "");
    }

    /** {@code If-Match: <etag>}, {@code ifGenerationMatch=<generation>}. */
    public static Precondition matches(String version) {
      return new Precondition("matches", version);
    }
  }

  @BeforeEach
  final void freshObject(TestInfo info) {
    object = "it/" + info.getTestMethod().orElseThrow().getName() + "/state.json";
    resetFaults();
  }

  /** A store as the tests use it: 4 attempts, 100 ms to 2 s, waits recorded, jitter 0.5. */
  protected final ConditionalCheckpointStore store() {
    RetryPolicy recording =
        new RetryPolicy(4, Duration.ofMillis(100), Duration.ofSeconds(2), sleeps::add, () -> 0.5);
    return newStore(object, recording, new StoreEnvironment(false, Clock.systemUTC(), metrics));
  }

  /** A counter's count, 0 when it was never registered. */
  protected final double counter(String name, String... tags) {
    var c = metrics.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  /** The probe finds a conforming endpoint's conditional writes honoured. */
  @Test
  void probeFindsConditionalWritesHonoured() {
    assertThat(store().probeConditionalWrites()).isInstanceOf(ConditionalWriteProbe.Honoured.class);
  }

  /** The probe detects an endpoint that accepts stale preconditions. */
  @Test
  void probeDetectsAnEndpointThatIgnoresConditionalHeaders() {
    ignoreConditionalHeaders();
    assertThat(store().probeConditionalWrites())
        .isInstanceOfSatisfying(
            ConditionalWriteProbe.Ignored.class,
            r -> assertThat(r.describe()).contains("ignores conditional headers"));
  }

  /**
   * Under a lease coordinator a store on such an endpoint refuses its first write (the epoch claim
   * at acquire) with a permanent error, and writes nothing.
   */
  @Test
  void underALeaseCoordinatorAStoreOnAnEndpointThatIgnoresConditionsRefusesToWrite() {
    ignoreConditionalHeaders();
    ConditionalCheckpointStore store =
        newProbingStore(
            object,
            RetryPolicy.standard(4),
            new StoreEnvironment(false, Clock.systemUTC(), metrics));

    assertThatThrownBy(() -> store.claimEpoch(new FakeTerm("a", 1)))
        .isInstanceOf(StoreUnsafeException.class)
        .hasMessageContaining(location(object))
        .hasMessageContaining("ignores conditional headers");
    assertThat(store().loadAll()).isEmpty();
  }

  /** Under {@code noop} the same endpoint is only a warning: the store writes. */
  @Test
  void underNoopAStoreOnAnEndpointThatIgnoresConditionsWarnsAndWrites() {
    ignoreConditionalHeaders();
    ConditionalCheckpointStore store =
        newProbingStore(object, RetryPolicy.standard(4), singleInstance());

    store.commit(Map.of("k", "v"), FakeTerm.unfenced("host-a"));

    assertThat(store().load("k")).contains("v");
    store.close();
  }

  /** A create is conditional on absence, a replace on the version the store last saw. */
  @Test
  void createIsConditionalOnAbsenceAndReplaceOnTheLastVersion() {
    ConditionalCheckpointStore store = store();
    store.commit(Map.of("k", "1"), Fence.NONE);
    String created = currentVersion();
    store.commit(Map.of("k", "2"), Fence.NONE);
    assertThat(writePreconditions())
        .containsExactly(Precondition.absent(), Precondition.matches(created));
  }

  /** A replace whose response was lost is found applied on the re-read: one transient retry. */
  @Test
  void lostResponseOfAnAppliedWriteIsRecognisedAsOurOwnWrite() {
    ConditionalCheckpointStore store = store();
    store.commit(Map.of("k", "1"), new FakeTerm("a", 1));
    loseTheResponseOfTheNextWrite();
    store.commit(Map.of("k", "2"), new FakeTerm("a", 1));
    assertThat(store().load("k")).contains("2");
    assertThat(counter("sf2loki_checkpoint_write_retries", "reason", "transient")).isEqualTo(1);
    assertThat(counter("sf2loki_checkpoint_commit_failures")).isZero();
  }

  /** The same holds for the write that created the object. */
  @Test
  void lostResponseOfTheCreatingWriteIsRecognisedToo() {
    loseTheResponseOfTheNextWrite();
    store().commit(Map.of("k", "1"), Fence.NONE);
    assertThat(store().load("k")).contains("1");
  }

  /**
   * A claim whose response was lost is refused although it landed: a rival claiming the same epoch
   * would have written the same bytes, so the store cannot tell the two apart.
   */
  @Test
  void claimWhoseResponseIsLostIsRefusedBecauseARivalWouldHaveWrittenTheSameBytes() {
    ConditionalCheckpointStore store = store();
    store.commit(Map.of("k", "1"), new FakeTerm("a", 1));
    loseTheResponseOfTheNextWrite();
    assertThatThrownBy(() -> store.claimEpoch(new FakeTerm("b", 2)))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("cannot be confirmed");
    assertThat(store().persistedEpoch()).hasValue(2);
  }

  /** Transient write failures are retried after the policy's jittered waits. */
  @Test
  void transientWriteFailuresAreRetriedWithJitteredBackoff() {
    failNextWritesTransiently(2);
    store().commit(Map.of("k", "1"), Fence.NONE);
    assertThat(store().load("k")).contains("1");
    assertThat(sleeps)
        .hasSize(2)
        .allSatisfy(d -> assertThat(d).isBetween(Duration.ofMillis(100), Duration.ofSeconds(2)));
  }

  /**
   * After four failed attempts a read gives up with {@link StoreUnavailableException} naming the
   * location and the attempts, having waited three times.
   */
  @Test
  void transientReadFailuresGiveUpAfterFourAttempts() {
    failNextReadsTransiently(4);
    ConditionalCheckpointStore store = store();
    assertThatThrownBy(store::loadAll)
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining(location(object))
        .hasMessageContaining("after 4 attempts");
    assertThat(sleeps).hasSize(3);
  }

  /** A commit that gives up the same way is counted as an unavailable commit failure. */
  @Test
  void commitThatGivesUpIsCountedAsUnavailable() {
    failNextReadsTransiently(4);
    ConditionalCheckpointStore store = store();
    assertThatThrownBy(() -> store.commit(Map.of("k", "1"), Fence.NONE))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("after 4 attempts");
    assertThat(sleeps).hasSize(3);
    assertThat(counter("sf2loki_checkpoint_commit_failures", "reason", "unavailable")).isEqualTo(1);
  }

  /** A client error other than 412 (here 403) is reported at once, never retried: permanent. */
  @Test
  void clientErrorsOtherThan412AreNotRetried() {
    forbidTheNextWrite();
    assertThatThrownBy(() -> store().commit(Map.of("k", "1"), Fence.NONE))
        .isInstanceOf(StoreAccessDeniedException.class)
        .hasMessageContaining("403")
        .hasMessageContaining("not retried")
        .satisfies(
            e ->
                assertThat(((StoreAccessDeniedException) e).failureClass().reason())
                    .isEqualTo("store_access_denied"));
    assertThat(sleeps).isEmpty();
    assertThat(counter("sf2loki_checkpoint_commit_failures", "reason", "access_denied"))
        .isEqualTo(1);
  }

  /**
   * Losing the race to a writer at an equal epoch (an operator) merges into its document and
   * retries: both keys survive, one conflict retry is counted.
   */
  @Test
  void concurrentWriterWithEqualEpochIsMergedAndRetried() {
    ConditionalCheckpointStore leader = store();
    leader.commit(Map.of("a", "1"), new FakeTerm("a", 4));
    store().commit(Map.of("b", "operator"), Fence.NONE);
    leader.commit(Map.of("a", "2"), new FakeTerm("a", 4));
    assertThat(store().loadAll())
        .containsOnly(
            Map.entry("a", "2"), Map.entry("b", "operator"), Map.entry("__fence_epoch__", "4"));
    assertThat(counter("sf2loki_checkpoint_write_retries", "reason", "conflict")).isEqualTo(1);
  }

  /**
   * Losing the race to a writer at a higher epoch fences us after the 412 re-read: nothing of ours
   * lands, and the fenced commit is counted.
   */
  @Test
  void concurrentWriterWithHigherEpochFencesUsAfterThe412() {
    ConditionalCheckpointStore stale = store();
    stale.commit(Map.of("a", "1"), new FakeTerm("old", 4));
    store().commit(Map.of("a", "new"), new FakeTerm("new", 5));
    assertThatThrownBy(() -> stale.commit(Map.of("a", "2"), new FakeTerm("old", 4)))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("epoch 5");
    assertThat(store().load("a")).contains("new");
    assertThat(counter("sf2loki_checkpoint_fenced_commits")).isEqualTo(1);
  }

  /** A throwaway store ({@code doctor}'s probe) removes its object and its probe object. */
  private Map<String, String> probeObject() {
    return newStore(
            object + ConditionalWriteProbe.SUFFIX, RetryPolicy.standard(4), singleInstance())
        .loadAll();
  }

  @Test
  void discardDeletesTheStoresObjectAndItsProbeObject() {
    ConditionalCheckpointStore probe =
        newProbingStore(object, RetryPolicy.standard(4), singleInstance());
    probe.commit(Map.of("doctor:probe", "1"), Fence.NONE);
    assertThat(probeObject()).isNotEmpty();

    probe.discard();

    assertThat(store().loadAll()).isEmpty();
    assertThat(probeObject()).isEmpty();
  }
}
