package io.sf2loki.testkit.pubsub;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fake org's managed event subscriptions ({@link FakePubSub#managedSubscriptions()}): their
 * records, the positions committed on them, and every ManagedFetchRequest and commit received.
 * Thread-safe.
 */
public final class ManagedSubscriptions {

  private final Map<String, ManagedRecord> byName = new ConcurrentHashMap<>();
  private final Map<String, ManagedRecord> byId = new ConcurrentHashMap<>();
  private final List<RecordedManagedFetch> fetches = new CopyOnWriteArrayList<>();
  private final List<RecordedCommit> commits = new CopyOnWriteArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();

  ManagedSubscriptions() {}

  /**
   * Adds {@code subscription}, or replaces the record of that developer name (its id and committed
   * position stay): a state change takes effect on the next ManagedSubscribe call.
   *
   * @return its Tooling API record id, for {@code subscription_id}
   */
  public String put(ManagedEventSubscription subscription) {
    ManagedRecord known = byName.get(subscription.developerName());
    if (known != null) {
      known.config(subscription);
      return known.id();
    }
    String id = "18x%012dAAA".formatted(ids.incrementAndGet());
    ManagedRecord created = new ManagedRecord(id, subscription);
    byName.put(subscription.developerName(), created);
    byId.put(id, created);
    return id;
  }

  /** The record id of {@code developerName}. */
  public String id(String developerName) {
    return named(developerName).id();
  }

  /** The replay id committed on {@code developerName}; empty while nothing was committed. */
  public Optional<ByteString> committed(String developerName) {
    return named(developerName).committed();
  }

  /** Every commit received on any managed subscription, in order, as answered. */
  public List<RecordedCommit> commits() {
    return List.copyOf(commits);
  }

  /** Every ManagedFetchRequest received, in order. */
  public List<RecordedManagedFetch> fetches() {
    return List.copyOf(fetches);
  }

  Optional<ManagedRecord> find(String developerNameOrId) {
    return Optional.ofNullable(byName.getOrDefault(developerNameOrId, byId.get(developerNameOrId)));
  }

  void record(RecordedManagedFetch fetch) {
    fetches.add(fetch);
  }

  void record(RecordedCommit commit) {
    commits.add(commit);
  }

  private ManagedRecord named(String developerName) {
    ManagedRecord r = byName.get(developerName);
    if (r == null) {
      throw new IllegalArgumentException("no managed subscription " + developerName);
    }
    return r;
  }
}
