package io.sf2loki.spi;

/**
 * Capability of a {@link CheckpointStore}: records a new leader's epoch so that at most one leader
 * ever runs with any one epoch.
 *
 * <p>The lease alone cannot promise that. A lease deleted or rewritten between one replica's claim
 * and its first write lets a second replica, which read the store's floor before that write, claim
 * the same lease epoch; the fencing rule of {@link CheckpointStore#commit} admits equal epochs, so
 * both would commit until the first one's next renewal failed. A claim is a compare-and-set on the
 * persisted epoch that only ever moves it strictly upwards, so of two such replicas exactly one
 * gets to run its term.
 *
 * <p>The engine claims at every acquire, before any data moves. A store without this capability
 * falls back to an empty fenced {@link CheckpointStore#commit}, which records the epoch but cannot
 * tell two holders of one epoch apart.
 */
public interface EpochClaim {

  /**
   * Atomically raises the persisted epoch to {@code term.epoch()}, refusing when it is already at
   * or above it. Only the reserved epoch key changes. An unfenced term (empty {@link
   * Term#fencingEpoch()}, the {@code noop} coordinator's) claims no epoch; a single-instance store
   * guards its document there instead (the file store's lock, an object store's writer stamp) and
   * fails with {@link StoreLockedException} when another instance holds it.
   *
   * <p>A store that cannot make the claim atomic in its current environment (the file store on a
   * file system without locks) may degrade it to the empty fenced commit, and must log that it did.
   *
   * <p>When the store cannot tell whether its own earlier attempt landed (a lost response), it
   * refuses: a false refusal costs one more campaign, a false success would let two leaders share
   * an epoch.
   *
   * @throws FencedException the term is no longer current, or another leader recorded this epoch or
   *     a higher one first; the caller must not run the term
   * @throws StoreUnavailableException the backend could not be read or written
   * @throws StoreConflictException too many concurrent writers; nothing was claimed
   * @throws CorruptStateException the persisted document or its epoch cannot be parsed
   * @throws StoreLockedException another single instance holds the document
   */
  void claimEpoch(Term term);
}
