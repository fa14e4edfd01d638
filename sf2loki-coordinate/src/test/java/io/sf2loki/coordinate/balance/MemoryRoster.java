package io.sf2loki.coordinate.balance;

import java.time.Instant;

/** A roster in memory, shared by the quotas of a test; its calls can be made to fail. */
class MemoryRoster implements Roster {

  private RosterDocument document = RosterDocument.EMPTY;
  private boolean failing;
  int writes;

  synchronized void failing(boolean failing) {
    this.failing = failing;
  }

  synchronized void put(String replica, Instant expiresAt) {
    document = document.with(replica, expiresAt);
  }

  synchronized RosterDocument document() {
    return document;
  }

  @Override
  public synchronized RosterDocument read() throws RosterException {
    check();
    return document;
  }

  @Override
  public synchronized RosterDocument heartbeat(String replica, Instant expiresAt, Instant now)
      throws RosterException {
    check();
    writes++;
    document = document.live(now).with(replica, expiresAt);
    return document;
  }

  @Override
  public synchronized void leave(String replica, Instant now) throws RosterException {
    check();
    document = document.live(now).without(replica);
  }

  private void check() throws RosterException {
    if (failing) {
      throw new RosterException(location(), "unreachable", false, null);
    }
  }

  @Override
  public String location() {
    return "memory";
  }
}
