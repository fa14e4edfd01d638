package io.sf2loki.daemon.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.spi.StopSignal;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The periodic summary: what changed since the previous line, non-zero values only, no line when
 * nothing changed, each line labelled with the time that passed on the injected ticker.
 */
class MetricsSummaryTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private Counter ingested(String source, String type) {
    return Counter.builder("sf2loki_events_ingested")
        .tag("source", source)
        .tag("event_type", type)
        .register(registry);
  }

  private DistributionSummary lag(String source, String type) {
    return DistributionSummary.builder("sf2loki_ingest_lag_seconds")
        .tag("source", source)
        .tag("event_type", type)
        .register(registry);
  }

  @Test
  void aLineReportsEntriesBytesLagAndErrorsThatChangedSinceThePreviousOne() {
    ingested("eventlogfile", "Login").increment(5); // before the summary started: not reported
    MetricsSummary summary = new MetricsSummary(registry);
    ingested("eventlogfile", "Login").increment(100);
    ingested("eventlogfile", "API").increment(20);
    ingested("pubsub", "LoginEventStream").increment(3);
    ingested("apexlog", "ApexLog"); // registered, nothing new
    registry.counter("sf2loki_loki_bytes_pushed").increment(46_284);
    lag("eventlogfile", "Login").record(3600);
    lag("eventlogfile", "API").record(3610);
    lag("pubsub", "LoginEventStream").record(1);
    registry
        .counter("sf2loki_soql_poll_errors", "source", "eventlog_objects", "object", "A")
        .increment();
    registry
        .counter("sf2loki_soql_poll_errors", "source", "apexlog", "object", "apexlog")
        .increment();
    registry.counter("sf2loki_loki_push", "outcome", "retried").increment();
    registry.counter("sf2loki_loki_push", "outcome", "success").increment(7);
    registry.counter("sf2loki_leadership_acquisitions").increment();

    assertThat(summary.next(Duration.ofSeconds(30)))
        .contains(
            "non-zero metrics in the last 30s: entries.eventlogfile=120 entries.pubsub=3"
                + " loki_bytes=46284 loki_push_retried=1 soql_poll_errors=2"
                + " lag_avg.eventlogfile=1h5s lag_avg.pubsub=1s");
  }

  @Test
  void nothingChangedNoLine() {
    ingested("eventlogfile", "Login").increment(5);
    MetricsSummary summary = new MetricsSummary(registry);

    assertThat(summary.next(Duration.ofSeconds(30))).isEmpty();
    ingested("eventlogfile", "Login").increment(1);
    assertThat(summary.next(Duration.ofSeconds(30)))
        .contains("non-zero metrics in the last 30s: entries.eventlogfile=1");
    assertThat(summary.next(Duration.ofSeconds(30))).isEmpty();
  }

  /** One interval: how long it lasts on the ticker and what the sources do meanwhile. */
  private record Interval(Duration lasts, Runnable activity) {}

  /** Waits that time out after each interval in turn, moving the ticker; then the stop. */
  private static StopSignal intervals(AtomicLong ticker, Deque<Interval> intervals) {
    return new StopSignal() {
      @Override
      public boolean isStopRequested() {
        return intervals.isEmpty();
      }

      @Override
      public boolean awaitStop(Duration timeout) {
        Interval next = intervals.poll();
        if (next == null) {
          return true;
        }
        next.activity().run();
        ticker.addAndGet(next.lasts().toNanos());
        return false;
      }
    };
  }

  @Test
  void theLoopLogsALineEachIntervalLabelledWithTheTimeThatPassedOnTheTicker() {
    AtomicLong now = new AtomicLong();
    Counter elf = ingested("eventlogfile", "Login");
    Deque<Interval> script =
        new ArrayDeque<>(
            List.of(
                new Interval(Duration.ofSeconds(30), () -> elf.increment(2)),
                new Interval(Duration.ofSeconds(30), () -> {}),
                new Interval(Duration.ofMillis(31_400), () -> elf.increment())));
    Logger logger = (Logger) LoggerFactory.getLogger(SummaryLoop.class);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    try {
      new SummaryLoop(
              new MetricsSummary(registry),
              Duration.ofSeconds(30),
              now::get,
              intervals(now, script))
          .run();
    } finally {
      logger.detachAppender(lines);
    }

    assertThat(lines.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly(
            "non-zero metrics in the last 30s: entries.eventlogfile=2",
            "non-zero metrics in the last 31s: entries.eventlogfile=1");
  }
}
