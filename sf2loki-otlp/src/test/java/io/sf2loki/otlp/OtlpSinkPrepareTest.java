package io.sf2loki.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.model.Batch;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.OtlpFault;
import io.sf2loki.testkit.otlp.ReceivedLogRecord;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A batch is encoded once: ahead of its push when the pipeline prepares it, and a retry sends the
 * same body. The records' observed time shows which encoding was sent.
 */
class OtlpSinkPrepareTest {

  static final Instant PREPARED = Instant.parse("2026-12-07T04:00:00Z");

  final ManualClock clock = new ManualClock(PREPARED);
  FakeOtlpLogs otlp;

  @AfterEach
  void stop() {
    if (otlp != null) {
      otlp.close();
    }
  }

  OtlpSink sink() throws Exception {
    return new OtlpSink(OtlpConfigs.to(otlp.uri()).build(), new SimpleMeterRegistry(), clock);
  }

  @Test
  void aPreparedBatchIsSentAsEncodedAheadOfItsPush() throws Exception {
    otlp = FakeOtlpLogs.start();
    Batch batch = OtlpSinkAnswersTest.batch(3);

    try (OtlpSink sink = sink()) {
      sink.prepare(batch);
      clock.advance(Duration.ofSeconds(5));
      sink.push(batch);
    }

    assertThat(otlp.records())
        .extracting(ReceivedLogRecord::observedTimeUnixNano)
        .containsOnly(OtlpSink.nanos(PREPARED));
  }

  @Test
  void aRetrySendsThePreparedBodyAgain() throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.status(503, 1));
    Batch batch = OtlpSinkAnswersTest.batch(3);

    try (OtlpSink sink = sink()) {
      sink.prepare(batch);
      clock.advance(Duration.ofSeconds(5));
      assertThatThrownBy(() -> sink.push(batch)).isInstanceOf(RetryableSinkException.class);
      clock.advance(Duration.ofSeconds(5));
      sink.push(batch); // the lane's retry
    }

    assertThat(otlp.records())
        .hasSize(3)
        .extracting(ReceivedLogRecord::observedTimeUnixNano)
        .containsOnly(OtlpSink.nanos(PREPARED));
  }

  @Test
  void aRetryOfAnUnpreparedBatchSendsTheBodyOfItsFirstAttempt() throws Exception {
    otlp = FakeOtlpLogs.start();
    otlp.inject(OtlpFault.status(503, 1));
    Batch batch = OtlpSinkAnswersTest.batch(3);

    try (OtlpSink sink = sink()) {
      assertThatThrownBy(() -> sink.push(batch)).isInstanceOf(RetryableSinkException.class);
      clock.advance(Duration.ofSeconds(5));
      sink.push(batch);
    }

    assertThat(otlp.records())
        .hasSize(3)
        .extracting(ReceivedLogRecord::observedTimeUnixNano)
        .containsOnly(OtlpSink.nanos(PREPARED));
  }

  @Test
  void aDeliveredBatchPreparedAgainIsEncodedAfresh() throws Exception {
    otlp = FakeOtlpLogs.start();
    Batch batch = OtlpSinkAnswersTest.batch(2);

    try (OtlpSink sink = sink()) {
      sink.prepare(batch);
      sink.push(batch);
      clock.advance(Duration.ofSeconds(5));
      sink.prepare(batch); // (a replay of the same object: not found once delivered)
      sink.push(batch);
    }

    assertThat(otlp.records())
        .extracting(ReceivedLogRecord::observedTimeUnixNano)
        .containsExactly(
            OtlpSink.nanos(PREPARED),
            OtlpSink.nanos(PREPARED),
            OtlpSink.nanos(PREPARED.plusSeconds(5)),
            OtlpSink.nanos(PREPARED.plusSeconds(5)));
  }
}
