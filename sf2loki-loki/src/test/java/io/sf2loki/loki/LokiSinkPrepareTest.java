package io.sf2loki.loki;

import static io.sf2loki.pipeline.Entries.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link LokiSink#prepare}: shaping and encoding ahead of the push, on another thread. */
class LokiSinkPrepareTest {

  final FakeLoki loki = LokiSinkEncodingTest.start();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final RecordingSleeper sleeper = new RecordingSleeper();

  @AfterEach
  void close() {
    loki.close();
  }

  LokiSink sink(LokiConfigs config) throws Exception {
    return LokiSink.builder(config.build(), registry, Clock.systemUTC()).sleeper(sleeper).build();
  }

  static Batch batch() {
    return new Batch(
        List.of(
            entry("eventlogfile", "Login", 2, "b"),
            entry("eventlogfile", "API", 1, "a"),
            entry("eventlogfile", "Login", 3, "é".repeat(400))));
  }

  @Test
  void preparedBatchIsSentAsTheSameBytesAsAnUnpreparedOne() throws Exception {
    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()).maxLineBytes(100))) {
      sink.push(batch()); // two pushes: each new stream alone
      sink.push(batch());
      Batch prepared = batch();
      Thread preparing = new Thread(() -> sink.prepare(prepared)); // the lane's batching thread
      preparing.start();
      preparing.join(TestTiming.seconds(10).toMillis());
      sink.push(prepared);
    }

    assertThat(loki.pushes()).hasSize(4);
    assertThat(loki.pushes().get(3).bodyBytes()).isEqualTo(loki.pushes().get(2).bodyBytes());
  }

  @Test
  void preparedBatchIsShapedOnceAcrossLaneRetries() throws Exception {
    loki.addFault(Fault.status(503, 1)); // the first attempt fails; the lane retries
    Batch b = batch();
    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()).maxLineBytes(100))) {
      sink.prepare(b);
      assertThatThrownBy(() -> sink.push(b)).isInstanceOf(RetryableSinkException.class);
      sink.push(b); // the lane retries the same batch
    }

    assertThat(loki.lines()).hasSize(3);
    assertThat(registry.counter("sf2loki_lines_truncated", "source", "eventlogfile").count())
        .isEqualTo(1);
  }

  @Test
  void preparingSendsNothing() throws Exception {
    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      sink.prepare(batch()); // e.g. abandoned in the hand-off at shutdown
    }

    assertThat(loki.pushes()).isEmpty();
  }

  @Test
  void checkpointOnlyBatchIsPreparedAndPushedWithoutSending() throws Exception {
    Batch markers =
        new Batch(List.of(LogEntry.checkpointOnly(new io.sf2loki.model.CheckpointToken("k", "1"))));
    try (LokiSink sink = sink(LokiConfigs.to(loki.baseUri()))) {
      sink.prepare(markers);
      sink.push(markers);
    }

    assertThat(loki.pushes()).isEmpty();
  }
}
