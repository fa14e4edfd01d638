package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;
import java.util.Optional;

/**
 * The server side of one managed subscription: its record, the position committed on it and the one
 * call allowed to stream it at a time. Thread-safe.
 */
final class ManagedRecord {

  private final String id;
  private ManagedEventSubscription config;
  private ByteString committed = ByteString.EMPTY;
  private Object active;

  ManagedRecord(String id, ManagedEventSubscription config) {
    this.id = id;
    this.config = config;
  }

  /** The Tooling API record id. */
  String id() {
    return id;
  }

  synchronized ManagedEventSubscription config() {
    return config;
  }

  synchronized void config(ManagedEventSubscription next) {
    this.config = next;
  }

  /** Makes {@code call} the active stream; false when another one is active. */
  synchronized boolean claim(Object call) {
    if (active != null && active != call) {
      return false;
    }
    active = call;
    return true;
  }

  /** Ends {@code call}'s claim, if it holds it. */
  synchronized void release(Object call) {
    if (active == call) {
      active = null;
    }
  }

  /** The committed replay id; empty while nothing was committed. */
  synchronized Optional<ByteString> committed() {
    return committed.isEmpty() ? Optional.empty() : Optional.of(committed);
  }

  synchronized void commit(ByteString replayId) {
    this.committed = replayId;
  }
}
