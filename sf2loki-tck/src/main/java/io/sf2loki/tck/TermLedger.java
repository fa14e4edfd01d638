package io.sf2loki.tck;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.Term;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the engine does with the terms contenders are granted, and the safety properties over them,
 * for the world of {@link LeaseCoordinatorProperties}.
 *
 * <p>Like the engine's {@code TermRunner}, every contender claims its epoch in the real store at
 * acquire; a refused claim means another replica recorded that epoch first, so the contender
 * resigns without running the term. A contender <em>leads</em> while it holds a current term whose
 * claim succeeded: that is when the engine runs a pipeline and commits. The properties: the
 * persisted epoch never falls; claimed epochs strictly increase; no two contenders lead with one
 * epoch (and, while nobody touched the lease, no two lead at all); the only leader is never fenced;
 * an ended or superseded term never lands a commit; onAcquire and onLose strictly alternate.
 */
final class TermLedger {

  private final CheckpointStore observer;
  private final List<RecordingLeadershipListener> listeners = new ArrayList<>();
  private final List<Term> claims = new ArrayList<>();
  private final Set<Term> refused = Collections.newSetFromMap(new IdentityHashMap<>());
  private final List<String> violations = new ArrayList<>();
  private long maxPersisted;
  private boolean tampered;
  private int commits;

  /** Over {@code observer}, a store instance on the contenders' document used only to read it. */
  TermLedger(CheckpointStore observer) {
    this.observer = observer;
    this.maxPersisted = floor(observer).persistedEpoch().orElse(0);
  }

  /** The store's floor; the world's stores are checked for both capabilities when opened. */
  static EpochFloor floor(CheckpointStore store) {
    return (EpochFloor) store;
  }

  private static EpochClaim claims(CheckpointStore store) {
    return (EpochClaim) store;
  }

  /** From now on someone has edited, deleted or corrupted the lease. */
  synchronized void tampered(boolean touched) {
    tampered |= touched;
  }

  /**
   * A listener for one contender incarnation: claims through {@code store} at acquire and runs
   * {@code resign} (on the contender's thread) when the claim is refused.
   */
  RecordingLeadershipListener listener(CheckpointStore store, Runnable resign) {
    RecordingLeadershipListener listener =
        new RecordingLeadershipListener(t -> acquired(store, t, resign), t -> {});
    synchronized (this) {
      listeners.add(listener);
    }
    return listener;
  }

  private void acquired(CheckpointStore store, Term term, Runnable resign) {
    try {
      claims(store).claimEpoch(term);
    } catch (FencedException e) {
      synchronized (this) {
        refused.add(term);
        if (!tampered) {
          violations.add(
              "claim of " + term.describe() + " refused although nobody touched the lease: " + e);
        }
      }
      resign.run();
      return;
    } catch (StoreException e) {
      synchronized (this) {
        violations.add("claim of " + term.describe() + " failed: " + e.getMessage());
      }
      return;
    }
    synchronized (this) {
      Term last = claims.isEmpty() ? null : claims.get(claims.size() - 1);
      if (last != null && term.epoch() <= last.epoch()) {
        violations.add("claimed " + term.describe() + " after " + last.describe());
      }
      claims.add(term);
    }
  }

  /** The term {@code listener} leads with now: held, current and claimed. */
  synchronized Optional<Term> leading(RecordingLeadershipListener listener) {
    return listener.held().filter(t -> t.isCurrent() && !refused.contains(t));
  }

  /** The terms the contenders behind {@code listeners} lead with now. */
  List<Term> leaders(List<RecordingLeadershipListener> listeners) {
    List<Term> leading = new ArrayList<>();
    for (RecordingLeadershipListener l : listeners) {
      leading(l).ifPresent(leading::add);
    }
    return leading;
  }

  /**
   * A commit of one key by the contender behind {@code listener}, through its own store, checked
   * against who leads now.
   */
  void commit(
      RecordingLeadershipListener listener, CheckpointStore store, String key, List<Term> leaders) {
    Optional<Term> held = listener.held();
    if (held.isEmpty() || isRefused(held.get())) {
      return; // the engine never runs a term whose claim was refused
    }
    Term t = held.get();
    boolean current = t.isCurrent();
    boolean onlyLeader = current && leaders.size() == 1;
    long newest = newestClaim();
    boolean accepted;
    try {
      store.commit(Map.of(key, Integer.toString(nextCommit())), t);
      accepted = true;
    } catch (StoreException e) {
      accepted = false;
    }
    if (onlyLeader && !accepted) {
      throw new AssertionError("commit by the only leader " + t.describe() + " was fenced");
    }
    if (accepted && !current) {
      throw new AssertionError("commit by " + t.describe() + " was accepted although it ended");
    }
    if (accepted && t.epoch() < newest) {
      throw new AssertionError(
          "stale commit by " + t.describe() + " accepted after epoch " + newest + " was claimed");
    }
  }

  /**
   * Checks every property at a quiescent instant.
   *
   * @throws AssertionError naming the first violations
   */
  void check(List<Term> leaders) {
    synchronized (this) {
      for (RecordingLeadershipListener l : listeners) {
        violations.addAll(l.violations());
      }
      if (!violations.isEmpty()) {
        throw new AssertionError(String.join("; ", violations));
      }
    }
    long persisted = floor(observer).persistedEpoch().orElse(0);
    if (persisted < maxPersisted) {
      throw new AssertionError("persisted epoch fell from " + maxPersisted + " to " + persisted);
    }
    maxPersisted = persisted;
    if (leaders.stream().mapToLong(Term::epoch).distinct().count() < leaders.size()) {
      throw new AssertionError("two contenders lead with one epoch: " + leaders);
    }
    if (!isTampered() && leaders.size() > 1) {
      throw new AssertionError("two leaders although nobody touched the lease: " + leaders);
    }
  }

  private synchronized boolean isRefused(Term t) {
    return refused.contains(t);
  }

  private synchronized boolean isTampered() {
    return tampered;
  }

  private synchronized int nextCommit() {
    return ++commits;
  }

  private synchronized long newestClaim() {
    return claims.isEmpty() ? 0 : claims.get(claims.size() - 1).epoch();
  }
}
