package io.sf2loki.salesforce.rest;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salesforce's clock as seen through the {@code Date} header of every REST response: the local
 * clock plus the last observed skew. The skew is applied only when it exceeds 30 s (a Date header's
 * one-second resolution and the request latency make smaller values noise); beyond 60 s a WARN is
 * logged once, because settle windows, lookbacks and max ages then run on Salesforce's time, not
 * ours, and (when Salesforce is ahead) its timestamps may be further ahead of Loki's clock than
 * Loki's {@code creation_grace_period} allows ({@code sink.loki.future_policy} handles those). The
 * last sample is the gauge {@code sf2loki_salesforce_clock_skew_seconds{source}}. Thread-safe: the
 * {@link SalesforceRestClient} records samples from any request thread.
 */
public final class ServerClock implements Consumer<Instant>, Supplier<Instant> {

  static final Duration APPLY_ABOVE = Duration.ofSeconds(30);
  static final Duration WARN_ABOVE = Duration.ofSeconds(60);
  private static final Logger LOG = LoggerFactory.getLogger(ServerClock.class);

  private final Clock local;
  private final AtomicBoolean warned = new AtomicBoolean();
  private volatile Duration skew = Duration.ZERO;

  static final String SKEW_GAUGE = "sf2loki_salesforce_clock_skew_seconds";

  /** A clock whose samples are not reported (tests, tools). */
  public ServerClock(Clock local) {
    this.local = local;
  }

  /**
   * A clock reporting its last sample as {@value #SKEW_GAUGE}{@code {source}}. One clock per source
   * and leadership run shares the registry, so a new one replaces the previous run's gauge.
   */
  public ServerClock(Clock local, MeterRegistry registry, String source) {
    this(local);
    Gauge previous = registry.find(SKEW_GAUGE).tag("source", source).gauge();
    if (previous != null) {
      registry.remove(previous);
    }
    Gauge.builder(SKEW_GAUGE, this, c -> c.skew.toMillis() / 1000.0)
        .description("Salesforce's clock minus this host's, from the last REST response's Date")
        .tag("source", source)
        .strongReference(true)
        .register(registry);
  }

  /** Records one {@code Date} header sample: skew = server time − local time. */
  @Override
  public void accept(Instant serverDate) {
    Duration s = Duration.between(local.instant(), serverDate);
    skew = s;
    if (s.abs().compareTo(WARN_ABOVE) > 0 && warned.compareAndSet(false, true)) {
      LOG.warn(
          "Salesforce's clock differs from this host's by {}s; settle windows, lookbacks and max"
              + " ages use Salesforce's clock{}",
          s.toSeconds(),
          s.isNegative()
              ? ""
              : "; its timestamps may be ahead of Loki's creation_grace_period, which"
                  + " sink.loki.future_policy handles (check this host's NTP)");
    }
  }

  /** The last sampled skew (server − local), applied or not; zero before the first sample. */
  public Duration observedSkew() {
    return skew;
  }

  /** The skew currently applied (zero unless its size is above 30 s). */
  public Duration appliedSkew() {
    Duration s = skew;
    return s.abs().compareTo(APPLY_ABOVE) > 0 ? s : Duration.ZERO;
  }

  /** Salesforce's "now": the local clock plus the applied skew. */
  public Instant now() {
    return local.instant().plus(appliedSkew());
  }

  @Override
  public Instant get() {
    return now();
  }
}
