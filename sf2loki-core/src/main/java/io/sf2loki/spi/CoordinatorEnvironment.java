package io.sf2loki.spi;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;

/**
 * What a launcher gives a coordinator it creates.
 *
 * @param clock wall clock (lease documents carry wall-clock expiries)
 * @param ticker monotonic clock for local durations (renewal age, observed staleness)
 * @param epochFloor the store's persisted epoch, consulted at every acquire (invariant 2); empty
 *     when the store lacks the capability
 * @param metrics where the coordinator reports acquisitions and losses
 * @param variables the process environment ({@code System.getenv()} in the launchers), for default
 *     holder identities ({@code HOSTNAME}) and the in-cluster check; never read from the system by
 *     a coordinator itself
 * @param threads makes the threads a coordinator starts of its own (the file lease's I/O threads,
 *     which run its file-system calls under a deadline); daemon threads, as {@link
 *     NamedThreadFactory} makes them
 * @param shard the name of the shard the coordinator elects a leader of ({@code orgs[].name}), or
 *     {@code ""} for a single-org deployment
 * @param balance the process's shard quota, shared by every shard's coordinator; {@link
 *     ShardBalance#UNLIMITED} for a single shard
 */
public record CoordinatorEnvironment(
    Clock clock,
    Ticker ticker,
    Optional<EpochFloor> epochFloor,
    MeterRegistry metrics,
    Map<String, String> variables,
    ThreadFactory threads,
    String shard,
    ShardBalance balance) {

  public CoordinatorEnvironment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ticker, "ticker");
    Objects.requireNonNull(epochFloor, "epochFloor");
    Objects.requireNonNull(metrics, "metrics");
    variables = Map.copyOf(variables);
    Objects.requireNonNull(threads, "threads");
    Objects.requireNonNull(shard, "shard");
    Objects.requireNonNull(balance, "balance");
  }

  /** An environment for a single shard, without a quota ({@link ShardBalance#UNLIMITED}). */
  public CoordinatorEnvironment(
      Clock clock,
      Ticker ticker,
      Optional<EpochFloor> epochFloor,
      MeterRegistry metrics,
      Map<String, String> variables,
      ThreadFactory threads) {
    this(clock, ticker, epochFloor, metrics, variables, threads, "", ShardBalance.UNLIMITED);
  }

  /** This environment for the coordinator of {@code shard}, under the process's {@code balance}. */
  public CoordinatorEnvironment withShard(String shard, ShardBalance balance) {
    return new CoordinatorEnvironment(
        clock, ticker, epochFloor, metrics, variables, threads, shard, balance);
  }

  /**
   * An environment whose coordinator threads are made by a {@link NamedThreadFactory} of its own,
   * named {@code sf2loki-coordinator-<n>} (tools and tests; a launcher passes its factory).
   */
  public CoordinatorEnvironment(
      Clock clock,
      Ticker ticker,
      Optional<EpochFloor> epochFloor,
      MeterRegistry metrics,
      Map<String, String> variables) {
    this(
        clock,
        ticker,
        epochFloor,
        metrics,
        variables,
        new NamedThreadFactory("sf2loki-coordinator"));
  }
}
