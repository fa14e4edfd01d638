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
