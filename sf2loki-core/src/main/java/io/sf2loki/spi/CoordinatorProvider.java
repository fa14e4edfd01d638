package io.sf2loki.spi;

/**
 * Creates a {@link Coordinator} selected by {@code coordinate.type}; its section is {@code
 * coordinate.<type>}. Register in {@code META-INF/services/io.sf2loki.spi.CoordinatorProvider}.
 */
public interface CoordinatorProvider extends ComponentProvider<CoordinatorProvider.Factory> {

  /** A validated coordinator configuration. */
  interface Factory {

    /**
     * How long a written lease stays valid without renewal ({@code ttl}, {@code lease_duration}),
     * for the launchers' topology warnings; empty for a coordinator without a lease ({@code noop}).
     */
    default java.util.Optional<java.time.Duration> leaseDuration() {
      return java.util.Optional.empty();
    }

    /** The lease's file when it lives on a file system, for the launchers' topology warnings. */
    default java.util.Optional<java.nio.file.Path> leaseFile() {
      return java.util.Optional.empty();
    }

    /**
     * The quota of a process leading several shards of this coordinator type ({@code orgs}), made
     * once per process by the composition root on the deployment's top-level {@code coordinate}
     * section (the shards' own sections name per-shard leases). No I/O until it is used. The
     * default, for coordinators without a roster of live replicas ({@code noop}), is {@link
     * ShardBalance#UNLIMITED}.
     *
     * @param shards the shards' names, at least two
     * @param slack {@code coordinate.shard_slack}: shards a replica may lead above an even share
     * @param environment clock, ticker, the process's (untagged) meter registry, variables, threads
     */
    default ShardBalance shardBalance(
        java.util.List<String> shards, int slack, CoordinatorEnvironment environment) {
      return ShardBalance.UNLIMITED;
    }

    /**
     * A reader of the roster {@link #shardBalance} keeps, for {@code lease show}; empty for
     * coordinators without one ({@code noop}). Called on the top-level factory.
     *
     * @param variables the process environment, as in {@link CoordinatorEnvironment#variables()}
     */
    default java.util.Optional<RosterInfo.Inspector> rosterInspector(
        java.util.Map<String, String> variables) {
      return java.util.Optional.empty();
    }

    /** Creates the coordinator; no election starts until {@link Coordinator#run}. */
    Coordinator create(CoordinatorEnvironment environment);

    /**
     * A reader of the lease that does not join the election, for the CLI and {@code doctor}. The
     * {@code noop} coordinator has none.
     *
     * @param clock the wall clock the lease's expiry is judged by
     * @param variables the process environment, as in {@link CoordinatorEnvironment#variables()}
     */
    java.util.Optional<LeaseInspector> inspector(
        java.time.Clock clock, java.util.Map<String, String> variables);
  }
}
