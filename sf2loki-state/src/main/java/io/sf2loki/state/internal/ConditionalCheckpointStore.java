package io.sf2loki.state.internal;

import io.sf2loki.config.Durations;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.StoreConflictException;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.StoreLockedException;
import io.sf2loki.spi.StoreUnavailableException;
import io.sf2loki.spi.Term;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A checkpoint store over one object with conditional writes (S3, GCS).
 *
 * <p>A write starts from the cached document and its version (or a fresh read), applies the {@link
 * Mutation} and writes it conditionally. A precondition failure is never blindly an error: the
 * object is re-read and the fresh document decides. Equal to what we sent means our earlier attempt
 * landed and only its response was lost (success). Otherwise another writer got in: its changes are
 * kept and ours merged on top, up to {@code maxConflicts} times, unless its epoch is higher, which
 * fences us (invariant 2). Transient failures are retried by the {@link RetryPolicy}.
 *
 * <p>Two guards an operator expects. Under {@code noop} ({@code singleInstance}) the daemon takes
 * the object at its start, at the claim of its term, by writing its writer stamp, keeps it fresh
 * with a heartbeat and releases it at {@link #close()} ({@link SingleWriter}, {@link
 * WriterLiveness}): a second instance finds a live stamp and is refused before it writes anything,
 * a restart after a crash takes the object over once the stamp has gone stale. Before its first
 * write a store created with {@code probe} runs the {@link ConditionalWriteProbe}: an endpoint that
 * ignores conditional headers is refused under a lease coordinator ({@link StoreUnsafeException})
 * and a WARN under {@code noop}.
 *
 * <p>Thread-safe: operations are serialised, so at most one write is in flight per store.
 */
public abstract class ConditionalCheckpointStore
    implements CheckpointStore, EpochFloor, EpochClaim {

  private static final Logger LOG = LoggerFactory.getLogger(ConditionalCheckpointStore.class);
  private static final int MAX_CONFLICTS = 5;

  private final ObjectBackend backend;
  private final RetryPolicy retry;
  private final StoreMetrics metrics;
  private final Optional<SingleWriter> singleWriter;
  private boolean probePending;
  private Snapshot cached;
  private boolean closed;

  /** The document as last read or written, with its version (empty when the object is absent). */
  private record Snapshot(Map<String, String> doc, byte[] bytes, Optional<String> version) {}

  /**
   * @param environment whether this is a single instance ({@code noop}): then the daemon takes the
   *     object at its start and stamps its writes; and the wall clock of its stamps
   * @param liveness the single instance's heartbeat and how it judges another's stamp
   * @param probe run the {@link ConditionalWriteProbe} before the first write
   */
  protected ConditionalCheckpointStore(
      ObjectBackend backend,
      RetryPolicy retry,
      StoreMetrics metrics,
      StoreEnvironment environment,
      WriterLiveness liveness,
      boolean probe) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.retry = Objects.requireNonNull(retry, "retry");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(liveness, "liveness");
    this.singleWriter =
        environment.singleInstance()
            ? Optional.of(new SingleWriter(environment.clock(), liveness))
            : Optional.empty();
    this.probePending = probe;
  }

  /** Runs the {@link ConditionalWriteProbe} on {@code <location>.sf2loki-probe} now. */
  public ConditionalWriteProbe.Result probeConditionalWrites() {
    try (ObjectBackend probe = backend.sibling(ConditionalWriteProbe.SUFFIX)) {
      return ConditionalWriteProbe.run(probe);
    }
  }

  /**
   * Deletes this store's object and its probe object, for a throwaway store on an object no
   * checkpoint lives in ({@code doctor}'s probe); never call it on the live document.
   */
  public synchronized void discard() {
    ensureOpen();
    try (ObjectBackend probe = backend.sibling(ConditionalWriteProbe.SUFFIX)) {
      probe.delete();
    }
    backend.delete();
    cached = null;
  }

  @Override
  public String location() {
    return backend.location();
  }

  @Override
  public synchronized Map<String, String> loadAll() {
    return readFresh().doc();
  }

  @Override
  public Optional<String> load(String key) {
    return Optional.ofNullable(loadAll().get(key));
  }

  @Override
  public synchronized OptionalLong persistedEpoch() {
    return StateDocument.epoch(readFresh().doc(), location());
  }

  @Override
  public void commit(Map<String, String> updates, Fence fence) {
    apply(Mutation.commit(updates, fence));
  }

  @Override
  public void delete(Set<String> keys, Fence fence) {
    apply(Mutation.delete(keys, fence));
  }

  @Override
  public void claimEpoch(Term term) {
    apply(Mutation.claim(term));
  }

  @Override
  public synchronized void reset() {
    cached = null;
  }

  /**
   * Releases the object if this process holds it (a restart then starts at once), then the client.
   * Idempotent.
   */
  @Override
  public synchronized void close() {
    if (!closed) {
      release();
      closed = true;
      cached = null;
      backend.close();
    }
  }

  /**
   * One heartbeat of the single writer: refreshes this process's stamp with a stamp-only write,
   * unless a write stamped it within half the heartbeat. Never throws: a failure is logged and
   * counted ({@code sf2loki_checkpoint_heartbeat_failures}) and the next beat tries again; finding
   * the object taken over by another process stops the heartbeat, and the daemon's next write is
   * refused. The {@link WriterLiveness#pacemaker()} calls it.
   */
  public void heartbeat() {
    synchronized (this) {
      SingleWriter writer = singleWriter.orElseThrow();
      if (closed || !writer.beatDue()) {
        return;
      }
      try {
        Snapshot base = cached != null ? cached : readFresh();
        stampLoop(
            "writer heartbeat",
            base,
            doc -> {
              writer.requireOwner(doc, location());
              return Optional.of(writer.stamp(doc));
            });
        writer.stamped();
      } catch (StoreLockedException e) { // taken over: the writer stopped holding the object
        cached = null;
        metrics.heartbeatFailed(e);
        LOG.error("{}", e.getMessage());
      } catch (StoreException e) {
        metrics.heartbeatFailed(e);
        LOG.warn(
            "{}: writer heartbeat failed, trying again in {}: {}",
            location(),
            Durations.format(writer.heartbeat()),
            e.getMessage());
      } catch (RuntimeException e) { // never end the heartbeat silently
        metrics.heartbeatFailed(e);
        LOG.warn("{}: writer heartbeat failed unexpectedly", location(), e);
      }
    }
  }

  private void apply(Mutation mutation) {
    metrics.write(
        () -> {
          synchronized (this) {
            ensureOpen();
            Mutation.requireCurrent(mutation.fence(), location()); // before any I/O
            probeOnce();
            if (stamped(mutation)
                && (!singleWriter.get().holds() || mutation instanceof Mutation.Claim)) {
              acquire((Term) mutation.fence());
            }
            writeLoop(mutation);
            return null;
          }
        });
  }

  private void writeLoop(Mutation mutation) {
    Snapshot base = cached != null ? cached : readFresh();
    boolean fromCache = cached != null;
    for (int conflicts = 0; ; ) {
      if (stamped(mutation)) {
        requireOwner(base);
      }
      Optional<Map<String, String>> next;
      try {
        next = mutation.applyTo(base.doc(), location());
      } catch (FencedException e) {
        if (!fromCache) {
          throw e;
        }
        base = readFresh(); // a cached epoch may be outdated: decide on the stored one
        fromCache = false;
        continue;
      }
      if (next.isEmpty() && fromCache) {
        base = readFresh(); // a stale cache may miss a key to delete
        fromCache = false;
        continue;
      }
      if (next.isEmpty()) {
        return;
      }
      if (stamped(mutation)) {
        next = next.map(singleWriter.get()::stamp);
      }
      byte[] bytes = StateDocument.serialize(next.get());
      Optional<String> written = conditionalWrite(bytes, base.version(), mutation.verb());
      if (written.isPresent()) {
        cached = new Snapshot(next.get(), bytes, written);
        if (stamped(mutation)) {
          singleWriter.get().stamped();
        }
        return;
      }
      Snapshot fresh = readFresh();
      if (Arrays.equals(fresh.bytes(), bytes)) {
        ownBytesFound(mutation);
        return;
      }
      lostRace(mutation.verb(), ++conflicts);
      Mutation.requireCurrent(mutation.fence(), location());
      base = fresh;
      fromCache = false;
    }
  }

  /** Counts a lost conditional-write race; gives up after {@value #MAX_CONFLICTS} in a row. */
  private void lostRace(String verb, int conflicts) {
    if (conflicts > MAX_CONFLICTS) {
      cached = null;
      throw new StoreConflictException(
          location()
              + ": "
              + verb
              + " lost "
              + MAX_CONFLICTS
              + " conditional-write races in a row to other writers; the document is reloaded"
              + " on the next attempt");
    }
    metrics.retried("conflict");
  }

  private boolean stamped(Mutation mutation) {
    return singleWriter.isPresent() && singleWriter.get().stamps(mutation);
  }

  /**
   * Takes the object for this process at the start of a term, from a fresh read: a document with no
   * stamp, ours, or a gone writer's gets ours; another live daemon's refuses this one ({@link
   * SingleWriter#admit}) before anything is written.
   */
  private void acquire(Term term) {
    SingleWriter writer = singleWriter.orElseThrow();
    AtomicReference<Optional<String>> takeover = new AtomicReference<>(Optional.empty());
    stampLoop(
        "writer stamp",
        readFresh(),
        doc -> {
          takeover.set(writer.admit(doc, term.holder(), location()));
          return Optional.of(writer.stamp(doc));
        });
    takeover.get().ifPresent(LOG::warn);
    if (writer.took(this::heartbeat)) {
      LOG.info(
          "{}: this single instance (writer {}) holds the object; its stamp is refreshed every {}",
          location(),
          writer.token(),
          Durations.format(writer.heartbeat()));
    }
  }

  /** The single writer's write is based on {@code base}: it must still be ours. */
  private void requireOwner(Snapshot base) {
    try {
      singleWriter.orElseThrow().requireOwner(base.doc(), location());
    } catch (StoreLockedException e) {
      cached = null;
      throw e;
    }
  }

  /** Removes this process's stamp at a graceful stop, so that a restart starts at once. */
  private void release() {
    if (singleWriter.isEmpty() || !singleWriter.get().holds()) {
      return;
    }
    SingleWriter writer = singleWriter.get();
    writer.lose();
    try {
      stampLoop(
          "writer release",
          readFresh(),
          doc -> {
            if (!writer.owns(doc)) {
              return Optional.empty();
            }
            Map<String, String> released = new LinkedHashMap<>(doc);
            released.remove(WriterStamp.KEY);
            return Optional.of(released);
          });
    } catch (StoreException e) {
      LOG.warn(
          "{}: could not release the writer stamp ({}); a restart waits until it is stale",
          location(),
          e.getMessage());
    }
  }

  /** The next document for a stamp-only write, from the one it is based on; empty: none. */
  @FunctionalInterface
  private interface StampStep {
    Optional<Map<String, String>> next(Map<String, String> doc);
  }

  /** Writes what {@code step} makes of {@code base}, re-reading and asking again on a lost race. */
  private void stampLoop(String verb, Snapshot base, StampStep step) {
    for (int conflicts = 0; ; ) {
      Optional<Map<String, String>> next = step.next(base.doc());
      if (next.isEmpty()) {
        return;
      }
      byte[] bytes = StateDocument.serialize(next.get());
      Optional<String> written = conditionalWrite(bytes, base.version(), verb);
      if (written.isPresent()) {
        cached = new Snapshot(next.get(), bytes, written);
        return;
      }
      lostRace(verb, ++conflicts);
      base = readFresh();
    }
  }

  private void probeOnce() {
    if (probePending) {
      ConditionalWriteProbe.Result result = probeConditionalWrites();
      probePending = false;
      ConditionalWriteProbe.enforce(result, singleWriter.isPresent(), location());
    }
  }

  /**
   * The object holds exactly the bytes we sent after a failed precondition: our earlier attempt
   * landed and only its response was lost — unless a rival could have written the same bytes, as
   * for a claim of the same epoch over the same document, which is then refused.
   */
  private void ownBytesFound(Mutation mutation) {
    if (!mutation.provenByContent()) {
      throw new FencedException(
          location()
              + ": "
              + mutation.verb()
              + " of "
              + mutation.fence().describe()
              + " cannot be confirmed: the object holds the bytes we sent, but a rival claiming"
              + " the same epoch would have written the same bytes; standing by rather than"
              + " risking two leaders with one epoch");
    }
    LOG.info(
        "{}: conditional write answered 412 but the object holds our bytes; the earlier"
            + " attempt was applied and its response lost",
        location());
  }

  /**
   * @return the new version, or empty when the precondition failed
   */
  private Optional<String> conditionalWrite(byte[] bytes, Optional<String> expected, String verb) {
    try {
      return Optional.of(withRetries(verb, () -> backend.write(bytes, expected)));
    } catch (PreconditionFailed e) {
      return Optional.empty();
    }
  }

  private Snapshot readFresh() {
    ensureOpen();
    Optional<ObjectBackend.StoredObject> stored;
    try {
      stored = withRetries("read", backend::read);
    } catch (PreconditionFailed e) {
      throw new StoreUnavailableException(location() + ": read failed: " + e.getMessage(), e);
    }
    Snapshot snapshot =
        stored
            .map(
                o ->
                    new Snapshot(
                        StateDocument.parse(o.body(), location(), recovery()),
                        o.body(),
                        Optional.of(o.version())))
            .orElseGet(() -> new Snapshot(Map.of(), new byte[0], Optional.empty()));
    cached = snapshot;
    return snapshot;
  }

  private String recovery() {
    return "The object was left untouched. Stop sf2loki, copy it aside and delete it; sources then"
        + " resume from their configured lookback, or load a repaired document into the now empty"
        + " object with `sf2loki-cli state import --force FILE`";
  }

  /** Internal signal: the backend answered 412/409. */
  private static final class PreconditionFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PreconditionFailed(BackendException cause) {
      super(cause.getMessage(), cause);
    }
  }

  private <T> T withRetries(String what, Supplier<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (BackendException e) {
        switch (e.kind()) {
          case PRECONDITION_FAILED -> throw new PreconditionFailed(e);
          case PERMANENT ->
              throw StoreException.classified(
                  location() + ": " + what + " failed (not retried): " + e.getMessage(),
                  e,
                  e.failureClass());
          case TRANSIENT -> {
            if (attempt >= retry.maxAttempts()) {
              throw StoreException.classified(
                  location()
                      + ": "
                      + what
                      + " failed after "
                      + attempt
                      + " attempts: "
                      + e.getMessage(),
                  e,
                  e.failureClass());
            }
            metrics.retried("transient");
            LOG.debug(
                "{}: {} attempt {} failed transiently: {}",
                location(),
                what,
                attempt,
                e.getMessage());
            sleep(retry.backoff(attempt));
          }
        }
      }
    }
  }

  private void sleep(java.time.Duration wait) {
    try {
      retry.sleeper().sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException(location() + ": interrupted while retrying", e);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("checkpoint store " + location() + " is closed");
    }
  }
}
