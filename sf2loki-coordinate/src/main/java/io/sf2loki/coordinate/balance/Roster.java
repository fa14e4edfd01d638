package io.sf2loki.coordinate.balance;

import java.time.Instant;

/**
 * Who is alive: one document beside the shards' leases mapping each replica's identity to the
 * expiry of its last heartbeat. Each replica writes only its own entry; expired entries are pruned
 * on every write. Called by one thread at a time per process (the quota serializes its calls).
 */
public interface Roster {

  /**
   * Reads the roster.
   *
   * @return the document, empty when it does not exist yet
   * @throws RosterException it cannot be read, or is not a roster ({@link
   *     RosterException#corrupt()})
   */
  RosterDocument read() throws RosterException;

  /**
   * Sets {@code replica}'s entry to {@code expiresAt} and prunes the entries expired at {@code
   * now}; a roster that is not a roster document is replaced (and reported by the exception after
   * the write).
   *
   * @return the document as written
   * @throws RosterException the write failed, or replaced a corrupt roster
   */
  RosterDocument heartbeat(String replica, Instant expiresAt, Instant now) throws RosterException;

  /**
   * Removes {@code replica}'s entry (a graceful stop), pruning expired ones too.
   *
   * @throws RosterException the roster could not be updated; the entry then expires by itself
   */
  void leave(String replica, Instant now) throws RosterException;

  /** The roster's path or {@code namespace/name}, for messages. */
  String location();
}
