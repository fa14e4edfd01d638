package io.sf2loki.spi;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Durable storage of the checkpoint document: one flat JSON object of string to string, with the
 * reserved key {@code __fence_epoch__} holding the epoch of the last fenced writer.
 *
 * <p>Calls may come from several threads (the lanes' committers, an operator command) but are
 * serialised by the store: at most one write is in flight per store.
 *
 * <p>Every write is fenced (invariant 2): before any I/O, a write whose {@link Fence} is no longer
 * current, or whose epoch is below the persisted epoch, fails with {@link FencedException}. A
 * successful fenced write persists the writer's epoch. {@link Fence#NONE} skips the epoch check and
 * keeps the persisted epoch as it is.
 *
 * <p>Every read parses inside the store's error handling: a document that is not a flat JSON object
 * of strings raises {@link CorruptStateException} naming the location and leaves the bytes
 * untouched.
 */
public interface CheckpointStore extends AutoCloseable {

  /**
   * The whole document, read fresh, including {@code __fence_epoch__} when present. A missing
   * document is empty.
   *
   * @throws CorruptStateException the document cannot be parsed
   * @throws StoreUnavailableException the backend could not be read after retries
   */
  Map<String, String> loadAll();

  /** One key of the document; empty when absent. Same errors as {@link #loadAll()}. */
  Optional<String> load(String key);

  /**
   * Writes {@code updates} into the document in one atomic write; keys not named are kept as they
   * are in the fresh document (an operator's repair of another key survives).
   *
   * @throws FencedException the fence is stale or its epoch is below the persisted epoch; nothing
   *     was written
   * @throws StoreConflictException another writer changed the document concurrently (CAS lost)
   * @throws CorruptStateException the current document cannot be parsed; nothing was written
   * @throws StoreUnavailableException the write failed after retries
   */
  void commit(Map<String, String> updates, Fence fence);

  /**
   * Removes {@code keys} in one atomic write; absent keys are ignored and when none is present no
   * write happens. Errors as for {@link #commit}.
   */
  void delete(Set<String> keys, Fence fence);

  /**
   * Drops any cached document and concurrency token. Called when a leadership term has drained so
   * that the next term starts from what is stored. The default does nothing.
   */
  default void reset() {}

  /** Where the document lives, for messages: a path, {@code s3://bucket/key}, {@code gs://...}. */
  String location();

  /** Releases locks and clients. Idempotent. */
  @Override
  void close();
}
