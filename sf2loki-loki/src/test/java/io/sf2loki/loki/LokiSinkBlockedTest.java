package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.RetryableSinkException;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A push is stored only when Loki says so: Loki 3.2's 260 for a blocked tenant and any other answer
 * that does not mean "stored" hand the batch back to the lane, never count it as delivered.
 */
class LokiSinkBlockedTest {

  final FakeLoki loki = LokiSinkEncodingTest.start();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  // Near the real now: the fake Loki checks entry ages and blocks against its own (real) clock.
  final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  final Logger senderLog = (Logger) LoggerFactory.getLogger(PushSender.class);

  {
    logs.start();
    senderLog.addAppender(logs);
  }

  @AfterEach
  void close() {
    senderLog.detachAppender(logs);
    loki.close();
  }

  LokiSink sink() throws Exception {
    return LokiSink.builder(
            LokiConfigs.to(loki.baseUri()).tenant("acme").build(),
            registry,
            Clock.fixed(now, ZoneOffset.UTC))
        .sleeper(new RecordingSleeper())
        .build();
  }

  List<String> logged(Level level) {
    synchronized (logs) {
      return logs.list.stream()
          .filter(e -> e.getLevel() == level)
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  double blockedGauge() {
    Gauge g = registry.find(LokiMetrics.INGESTION_BLOCKED).tag("tenant", "acme").gauge();
    return g == null ? Double.NaN : g.value();
  }

  @Test
  void a260IsNotStoredTheBatchIsRetriedAfterTheBlocksEnd() throws Exception {
    Instant until = now.plus(Duration.ofMinutes(30));
    loki.blockIngestion("acme", until);

    try (LokiSink sink = sink()) {
      assertThatThrownBy(() -> sink.push(LokiSinkStatusTest.batch(3, null)))
          .isInstanceOfSatisfying(
              RetryableSinkException.class,
              e -> {
                assertThat(e.status()).hasValue(260);
                assertThat(e.retryAfter()).contains(Duration.ofMinutes(30));
                assertThat(e.getMessage()).contains("ingestion blocked for user 'acme'");
              });
    }

    assertThat(loki.entries()).isEmpty();
    assertThat(registry.find("sf2loki_loki_bytes_pushed").counter().count()).isZero();
    assertThat(registry.counter("sf2loki_loki_responses", "status", "260").count()).isEqualTo(1);
  }

  @Test
  void theBlockIsGaugedAndLoggedOnceThenItsEndOnce() throws Exception {
    loki.blockIngestion("acme", now.plus(Duration.ofHours(2)));

    try (LokiSink sink = sink()) {
      for (int attempt = 0; attempt < 3; attempt++) {
        assertThatThrownBy(() -> sink.push(LokiSinkStatusTest.batch(3, null)))
            .isInstanceOf(RetryableSinkException.class);
      }
      assertThat(blockedGauge()).isEqualTo(1.0);
      assertThat(logged(Level.ERROR))
          .singleElement()
          .satisfies(m -> assertThat(m).contains("tenant 'acme'").contains("until"));

      loki.unblockIngestion("acme");
      sink.push(LokiSinkStatusTest.batch(3, null));
      sink.push(LokiSinkStatusTest.batch(3, null));
    }

    assertThat(loki.lines()).hasSize(3);
    assertThat(blockedGauge()).isZero();
    assertThat(logged(Level.INFO)).singleElement().asString().contains("tenant 'acme' again");
  }

  @Test
  void anUnexpected2xxIsNotTakenAsStored() throws Exception {
    loki.addFault(Fault.status(202, 1));

    try (LokiSink sink = sink()) {
      assertThatThrownBy(() -> sink.push(LokiSinkStatusTest.batch(3, null)))
          .isInstanceOfSatisfying(
              RetryableSinkException.class, e -> assertThat(e.status()).hasValue(202));
      sink.push(LokiSinkStatusTest.batch(3, null)); // the lane's retry delivers it
    }

    assertThat(loki.lines()).hasSize(3);
    assertThat(blockedGauge()).isNaN(); // not a block
  }

  @Test
  void a200IsStoredUnlessItsBodyIsAnError() {
    assertThat(PushSender.stored(new LokiHttpTransport.Response(200, Optional.empty(), "")))
        .isTrue();
    assertThat(PushSender.stored(new LokiHttpTransport.Response(204, Optional.empty(), "")))
        .isTrue();
    assertThat(
            PushSender.stored(
                new LokiHttpTransport.Response(
                    200, Optional.empty(), "ingestion blocked for user 'acme' until '...'")))
        .isFalse();
    assertThat(PushSender.stored(new LokiHttpTransport.Response(200, Optional.empty(), "error: x")))
        .isFalse();
    assertThat(PushSender.stored(new LokiHttpTransport.Response(260, Optional.empty(), "")))
        .isFalse();
  }
}
