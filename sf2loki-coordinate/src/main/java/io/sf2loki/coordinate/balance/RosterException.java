package io.sf2loki.coordinate.balance;

import java.util.Objects;

/**
 * The roster could not be read or written: unreachable storage or API server, a lost
 * optimistic-concurrency race after every retry, or a document that is not a roster (then {@link
 * #corrupt()}). Never fatal: the quota goes on with the last known number of replicas.
 */
public final class RosterException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String location;
  private final boolean corrupt;

  /**
   * @param location the roster's path or {@code namespace/name}
   * @param detail what went wrong
   * @param corrupt the roster exists but is not a roster document
   * @param cause the underlying failure, or null
   */
  public RosterException(String location, String detail, boolean corrupt, Throwable cause) {
    super("roster " + location + ": " + detail, cause);
    this.location = Objects.requireNonNull(location, "location");
    this.corrupt = corrupt;
  }

  /** The roster's path or {@code namespace/name}. */
  public String location() {
    return location;
  }

  /** True when the roster exists but is not a roster document. */
  public boolean corrupt() {
    return corrupt;
  }
}
