package io.sf2loki.daemon.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.registry.otlp.OtlpMetricsSender;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OTLP sender, counted and quiet: every failed push is counted ({@code
 * sf2loki_otlp_push_failures}), logged once per streak at WARN, and swallowed, so that Micrometer
 * neither logs a stack trace at every step nor lets a push failure reach anything else; the first
 * success after a streak is logged at INFO, and every success stamps {@code
 * sf2loki_otlp_last_push_success_timestamp_seconds}.
 */
final class PushOutcomes implements OtlpMetricsSender {

  private static final Logger LOG = LoggerFactory.getLogger(PushOutcomes.class);
  private static final int MAX_REASON = 300;

  private final OtlpMetricsSender delegate;
  private final String target;
  private final Clock clock;
  private final Counter failures;
  private final AtomicLong lastSuccessMillis = new AtomicLong();
  private long streak; // the push thread's only

  /**
   * @param delegate the sender that pushes
   * @param target the receiver, for the log lines (credentials redacted)
   * @param clock stamps the last success
   * @param registry where the outcome metrics are registered
   */
  PushOutcomes(OtlpMetricsSender delegate, String target, Clock clock, MeterRegistry registry) {
    this.delegate = delegate;
    this.target = target;
    this.clock = clock;
    this.failures =
        Counter.builder("sf2loki_otlp_push_failures")
            .description("OTLP metrics pushes that failed (transport error or a non-2xx answer)")
            .register(registry);
    Gauge.builder(
            "sf2loki_otlp_last_push_success_timestamp_seconds",
            lastSuccessMillis,
            m -> m.get() / 1000.0)
        .description("Unix time of the last OTLP metrics push the receiver accepted; 0 before it")
        .register(registry);
  }

  @Override
  public void send(Request request) {
    try {
      delegate.send(request);
    } catch (Exception e) {
      failed(e);
      return;
    }
    lastSuccessMillis.set(clock.millis());
    if (streak > 0) {
      LOG.info("OTLP metrics push to {} succeeded again after {} failed pushes", target, streak);
      streak = 0;
    }
  }

  private void failed(Exception e) {
    failures.increment();
    if (streak++ == 0) {
      LOG.warn(
          "OTLP metrics push to {} failed: {}; counting failures in"
              + " sf2loki_otlp_push_failures_total and trying again at every step (logged again"
              + " when a push succeeds)",
          target,
          reason(e));
    } else {
      LOG.debug("OTLP metrics push to {} failed again: {}", target, reason(e));
    }
  }

  private static String reason(Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    String line = message.replaceAll("\\s+", " ").strip();
    return line.length() <= MAX_REASON ? line : line.substring(0, MAX_REASON) + "…";
  }
}
