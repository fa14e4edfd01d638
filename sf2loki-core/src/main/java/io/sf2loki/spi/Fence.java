package io.sf2loki.spi;

import java.util.OptionalLong;

/**
 * The right to write checkpoints, checked by a store before every write.
 *
 * <p>Implementations must be thread-safe; {@link #isCurrent()} may be called from any thread and
 * may turn false at any moment.
 */
public interface Fence {

  /**
   * No fencing: a single instance ({@code noop}) or an operator write made with {@code --force}. No
   * epoch is checked and the persisted epoch is left unchanged.
   */
  Fence NONE =
      new Fence() {
        @Override
        public OptionalLong fencingEpoch() {
          return OptionalLong.empty();
        }

        @Override
        public boolean isCurrent() {
          return true;
        }

        @Override
        public String toString() {
          return "Fence.NONE";
        }
      };

  /** The epoch a write is stamped with and compared against; empty means "do not fence". */
  OptionalLong fencingEpoch();

  /** Whether the writer still believes it holds the right to write. */
  boolean isCurrent();

  /** A short description for error messages: holder and epoch. */
  default String describe() {
    OptionalLong epoch = fencingEpoch();
    return epoch.isPresent() ? "epoch " + epoch.getAsLong() : "unfenced";
  }
}
