package io.sf2loki.spi;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.random.RandomGenerator;

/**
 * What a launcher gives the sources it creates.
 *
 * @param clock wall clock
 * @param ticker monotonic clock for durations
 * @param random jitter (poll schedules, token-refresh backoff); shared by the sources' threads, so
 *     thread-safe
 * @param threads makes the threads a source starts of its own (the EventLogFile download workers);
 *     daemon threads whose uncaught exceptions are logged, as {@link NamedThreadFactory} makes them
 * @param metrics where sources report API calls, throttles and errors
 * @param deploymentLabels the static labels every entry carries ({@code job}, {@code service_name},
 *     {@code environment}, ...)
 * @param categoryOwnership which source owns an event category, so that wildcard discovery never
 *     double-ingests a category configured on another source
 * @param session the org's session every source of the org shares (one token provider, logged in at
 *     start), when the launcher opened one; a source that finds none opens its own
 */
public record SourceEnvironment(
    Clock clock,
    Ticker ticker,
    RandomGenerator random,
    ThreadFactory threads,
    MeterRegistry metrics,
    Map<String, String> deploymentLabels,
    CategoryOwnership categoryOwnership,
    Optional<OrgSession> session) {

  public SourceEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ticker, "ticker");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(threads, "threads");
    Objects.requireNonNull(metrics, "metrics");
    deploymentLabels = Map.copyOf(deploymentLabels);
    Objects.requireNonNull(categoryOwnership, "categoryOwnership");
    Objects.requireNonNull(session, "session");
  }

  /** An environment without a shared org session: each source opens its own. */
  public SourceEnvironment(
      Clock clock,
      Ticker ticker,
      RandomGenerator random,
      ThreadFactory threads,
      MeterRegistry metrics,
      Map<String, String> deploymentLabels,
      CategoryOwnership categoryOwnership) {
    this(
        clock,
        ticker,
        random,
        threads,
        metrics,
        deploymentLabels,
        categoryOwnership,
        Optional.empty());
  }

  /** An environment whose sources may ingest every category they discover. */
  public SourceEnvironment(
      Clock clock,
      Ticker ticker,
      RandomGenerator random,
      ThreadFactory threads,
      MeterRegistry metrics,
      Map<String, String> deploymentLabels) {
    this(
        clock,
        ticker,
        random,
        threads,
        metrics,
        deploymentLabels,
        CategoryOwnership.unrestricted());
  }

  /** A copy whose sources share {@code shared} and carry {@code labels} on every entry. */
  public SourceEnvironment withSession(OrgSession shared, Map<String, String> labels) {
    return new SourceEnvironment(
        clock, ticker, random, threads, metrics, labels, categoryOwnership, Optional.of(shared));
  }
}
