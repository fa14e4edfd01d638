package io.sf2loki.pipeline;

import static io.sf2loki.pipeline.Runs.fast;
import static io.sf2loki.pipeline.Runs.keyed;
import static io.sf2loki.pipeline.Runs.marker;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.Source.Lane;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.StoreConflictException;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.testkit.TestTiming;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PipelineCommitTest {

  final FakeCheckpointStore store = new FakeCheckpointStore();
  final FakeTerm term = new FakeTerm(7);
  final ScriptedSink sink = new ScriptedSink();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  PipelineOutcome runToEnd(Pipeline.Builder b) throws Exception {
    return Runs.start(b.metrics(new PipelineMetrics(registry)).build())
        .outcome()
        .get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
  }

  static ScriptedSource elf(int n) {
    return new ScriptedSource(
        "elf", Lane.BULK, n, i -> keyed("eventlogfile", "elf:Login", i), false);
  }

  @Test
  void completedRunDeliversInOrderAndCommitsTheLastValuePerKey() throws Exception {
    PipelineOutcome outcome = runToEnd(fast(List.of(elf(25)), sink, store, term));

    assertThat(outcome).isEqualTo(new PipelineOutcome.Completed());
    assertThat(sink.lines())
        .containsExactlyElementsOf(IntStream.range(0, 25).mapToObj(i -> "elf:Login#" + i).toList());
    assertThat(store.loadAll())
        .containsEntry("elf:Login", "24")
        .containsEntry("__fence_epoch__", "7");
    List<Integer> committed =
        store.commits().stream().map(c -> Integer.parseInt(c.get("elf:Login"))).toList();
    assertThat(committed).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void oneStoreWriteCoversEveryKeyOfABatch() throws Exception {
    List<LogEntry> entries =
        List.of(keyed("s", "a", 1), keyed("s", "b", 1), keyed("s", "a", 2), keyed("s", "c", 1));
    PipelineOutcome outcome =
        runToEnd(
            fast(List.of(ScriptedSource.of("src", Lane.BULK, entries)), sink, store, term)
                .lanes(Runs.lanes(4, 100, 0)));

    assertThat(outcome).isInstanceOf(PipelineOutcome.Completed.class);
    assertThat(store.commits()).containsExactly(Map.of("a", "2", "b", "1", "c", "1"));
  }

  @Test
  void checkpointOnlyEntryNeverOvertakesAnUndeliveredEntryOfItsKey() throws Exception {
    sink.failRetryably(5);
    store.beforeCommit(
        updates -> {
          if ("2".equals(updates.get("k"))) {
            assertThat(sink.lines()).contains("k#1");
          }
        });
    List<LogEntry> entries = List.of(keyed("s", "k", 1), marker("k", 2));

    PipelineOutcome outcome =
        runToEnd(fast(List.of(ScriptedSource.of("src", Lane.BULK, entries)), sink, store, term));

    assertThat(outcome).isInstanceOf(PipelineOutcome.Completed.class);
    assertThat(store.loadAll()).containsEntry("k", "2");
  }

  @Test
  void batchOfOnlyCheckpointOnlyEntriesIsCommittedWithoutAPush() throws Exception {
    List<LogEntry> entries = List.of(marker("pubsub:/event/X", 1), marker("pubsub:/event/X", 2));

    runToEnd(fast(List.of(ScriptedSource.of("ps", Lane.STREAMING, entries)), sink, store, term));

    assertThat(sink.attempts()).isEmpty();
    assertThat(store.loadAll()).containsEntry("pubsub:/event/X", "2");
    assertThat(registry.get("sf2loki_last_push_success_timestamp_seconds").gauge().value())
        .isPositive();
  }

  @Test
  void retryableFailuresRetryTheSameBatchUntilDelivered() throws Exception {
    sink.failRetryably(3);

    runToEnd(fast(List.of(elf(5)), sink, store, term));

    // On a loaded machine the flush interval may split the five entries into two batches; the
    // behaviour under test is that the failing batch is retried as the same batch, then delivered.
    assertThat(sink.attempts()).hasSizeGreaterThanOrEqualTo(4);
    assertThat(sink.attempts().subList(0, 4)).allMatch(b -> b == sink.attempts().get(0));
    assertThat(registry.counter("sf2loki_loki_push", "outcome", "retried").count()).isEqualTo(3);
    assertThat(registry.counter("sf2loki_loki_push", "outcome", "success").count())
        .isEqualTo(sink.attempts().size() - 3.0);
    assertThat(store.loadAll()).containsEntry("elf:Login", "4");
  }

  @Test
  void permanentRejectionIsCountedAsDroppedAndCommittedPast() throws Exception {
    sink.rejectPermanently("bad_request");

    PipelineOutcome outcome = runToEnd(fast(List.of(elf(3)), sink, store, term));

    assertThat(outcome).isInstanceOf(PipelineOutcome.Completed.class);
    assertThat(
            registry
                .counter(
                    "sf2loki_loki_entries_dropped",
                    "reason",
                    "bad_request",
                    "source",
                    "eventlogfile",
                    "event_type",
                    "Login")
                .count())
        .isEqualTo(3);
    assertThat(store.loadAll()).containsEntry("elf:Login", "2");
  }

  @Test
  void fencedCommitEndsTheRunAsLostLeadershipWithoutWaitingForTheSources() throws Exception {
    term.revoke();
    ScriptedSource idle =
        new ScriptedSource("elf", Lane.BULK, 3, i -> keyed("eventlogfile", "k", i), true);

    PipelineOutcome outcome = runToEnd(fast(List.of(idle), sink, store, term));

    assertThat(outcome).isInstanceOf(PipelineOutcome.LostLeadership.class);
    assertThat(store.commits()).isEmpty();
  }

  @Test
  void storeConflictIsLostLeadershipToo() throws Exception {
    store.failNextCommit(new StoreConflictException("etag changed"));

    PipelineOutcome outcome = runToEnd(fast(List.of(elf(3)), sink, store, term));

    assertThat(outcome).isEqualTo(new PipelineOutcome.LostLeadership("etag changed"));
  }

  @Test
  void otherCommitFailureEndsTheRunAsFailed() throws Exception {
    StoreUnavailableException down = new StoreUnavailableException("s3 unreachable");
    store.failNextCommit(down);

    PipelineOutcome outcome = runToEnd(fast(List.of(elf(3)), sink, store, term));

    assertThat(outcome).isEqualTo(new PipelineOutcome.Failed(down));
    assertThat(registry.counter("sf2loki_checkpoint_commits", "outcome", "error").count())
        .isEqualTo(1);
  }

  @Test
  void sourceSeesTheLoadedPositionAndThenItsOwnCommits() throws Exception {
    FakeCheckpointStore seeded = new FakeCheckpointStore(Map.of("elf:Login", "41"));
    ScriptedSource source = elf(3);

    runToEnd(fast(List.of(source), sink, seeded, term));

    assertThat(source.context().checkpoint("elf:Login")).contains("2");
    assertThat(source.context().checkpoint("other")).isEmpty();
  }

  @Test
  void sourceFailureDrainsWhatItEmittedAndReportsFailed() throws Exception {
    IllegalStateException boom = new IllegalStateException("boom");
    ScriptedSource failing = elf(4).failingAtEnd(boom);

    PipelineOutcome outcome = runToEnd(fast(List.of(failing), sink, store, term));

    assertFailedBy(outcome, boom);
    assertThat(store.loadAll()).containsEntry("elf:Login", "3");
  }

  @Test
  void sourceEndedByAnErrorFailsTheRunInsteadOfCompletingIt() throws Exception {
    StackOverflowError error = new StackOverflowError("injected");
    ScriptedSource dying = elf(4).failingAtEnd(error);

    PipelineOutcome outcome = runToEnd(fast(List.of(dying), sink, store, term));

    assertFailedBy(outcome, error);
  }

  private static void assertFailedBy(PipelineOutcome outcome, Throwable sourceFailure) {
    assertThat(outcome)
        .isInstanceOfSatisfying(
            PipelineOutcome.Failed.class,
            f ->
                assertThat(f.cause())
                    .isInstanceOf(SourceFailedException.class)
                    .hasCause(sourceFailure));
  }

  @Test
  void staticLabelsAreStampedOverEntryLabelsAndIngestIsCounted() throws Exception {
    runToEnd(fast(List.of(elf(2)), sink, store, term).staticLabels(Map.of("job", "custom")));

    assertThat(sink.delivered()).allMatch(e -> e.labels().get("job").equals("custom"));
    assertThat(
            registry
                .counter("sf2loki_events_ingested", "source", "eventlogfile", "event_type", "Login")
                .count())
        .isEqualTo(2);
    assertThat(registry.get("sf2loki_ingest_lag_seconds").summary().count()).isEqualTo(2);
  }

  @Test
  void runWithoutSourcesCompletesAtOnce() throws Exception {
    PipelineOutcome outcome = fast(List.of(), sink, store, term).build().run(new StopTrigger());

    assertThat(outcome).isEqualTo(new PipelineOutcome.Completed());
  }
}
