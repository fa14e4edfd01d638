package io.sf2loki.spi;

/**
 * Capability: reads the election's lease without joining the election, for {@code lease show},
 * {@code doctor} and the CLI's running-daemon guard (invariant 7).
 */
public interface LeaseInspector {

  /**
   * Reads the lease once. Never throws for a missing, unreadable or corrupt lease: those are
   * reported as {@link LeaseInfo.State#ABSENT} or {@link LeaseInfo.State#UNREADABLE} with a detail.
   */
  LeaseInfo inspect();
}
