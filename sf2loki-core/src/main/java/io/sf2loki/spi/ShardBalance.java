package io.sf2loki.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * How many shards this replica leads at once: one object per process, shared by the coordinators of
 * the process's shards (one org each), which the composition root creates ({@link
 * CoordinatorProvider.Factory#shardBalance}) and hands to each coordinator through its {@link
 * CoordinatorEnvironment}. A deployment of one shard, and the {@code noop} coordinator, use {@link
 * #UNLIMITED}: every attempt is allowed and nothing is ever handed over.
 *
 * <p>A coordinator {@link #reserve reserves} before each acquire attempt and reports how the
 * attempt and the term went on the {@link Reservation}; after each confirmed renewal it asks
 * whether to hand the shard over ({@link Reservation#shouldShed}). Thread-safe: the shards'
 * coordinators call it from their own threads; no call blocks on another coordinator's lease I/O.
 */
public interface ShardBalance extends AutoCloseable {

  /** No quota: every attempt may go ahead, no shard is handed over. */
  ShardBalance UNLIMITED =
      new ShardBalance() {
        @Override
        public void tick() {}

        @Override
        public Optional<Reservation> reserve(String shard) {
          return Optional.of(Reservation.FREE);
        }

        @Override
        public void close() {}
      };

  /**
   * Called from every wait of every coordinator: keeps this replica's roster entry fresh when it is
   * due (at most once per renew interval for the whole process). Never throws, and never blocks on
   * the roster's I/O: a leader calls it right before the wait that times its next renewal.
   */
  void tick();

  /**
   * Asks to attempt acquiring {@code shard} now.
   *
   * @return a reservation counted against this replica's quota, or empty when the replica is at its
   *     quota or should let a shard it prefers go first (the coordinator tries again at its next
   *     poll)
   */
  Optional<Reservation> reserve(String shard);

  /**
   * After {@link #reserve} refused: how soon the quota may have room, when that is known to be
   * sooner than a coordinator's next poll. A replica that died keeps counting until its roster
   * entry expires, up to a renew interval after its leases did; a coordinator that waited a whole
   * poll for that would lead the dead replica's shard up to a renew interval past ttl + renew.
   *
   * @return the time until another replica's roster entry expires (the cap may rise then), a
   *     fraction of a renew interval when a place may come back sooner (another attempt of this
   *     replica holds one, or an expired entry awaits confirmation), or empty when nothing is due
   *     to change
   */
  default Optional<Duration> roomMayOpenIn() {
    return Optional.empty();
  }

  /** Removes this replica from the roster (best effort), after its shards were handed over. */
  @Override
  void close();

  /** Why a held shard was given up while its term was still current. */
  enum HandOver {
    /** The replica held more than its quota. */
    BALANCE,
    /** The process was stopping. */
    STOP
  }

  /**
   * One acquire attempt and, when it won, the term it led. Each method is called by the shard's
   * coordinator thread; {@link #won} at most once, then {@link #shouldShed} any number of times,
   * and last either {@link #cancel} or {@link #handedOver}.
   */
  interface Reservation {

    /** The reservation of {@link #UNLIMITED}. */
    Reservation FREE =
        new Reservation() {
          @Override
          public void won() {}

          @Override
          public void cancel() {}

          @Override
          public boolean shouldShed() {
            return false;
          }

          @Override
          public void handedOver(HandOver reason) {}
        };

    /** The attempt won the lease: the shard is held. */
    void won();

    /** The attempt did not win, or the held term was lost: the quota is freed. Idempotent. */
    void cancel();

    /**
     * After a confirmed renewal: true when this replica holds more than its quota and this shard is
     * the one to give up now (then the coordinator ends its term gracefully and releases it).
     */
    boolean shouldShed();

    /** The held term ended gracefully and the lease was released; the quota is freed. */
    void handedOver(HandOver reason);
  }
}
