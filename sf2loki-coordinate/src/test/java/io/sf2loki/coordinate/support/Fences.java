package io.sf2loki.coordinate.support;

import io.sf2loki.spi.Fence;
import java.util.OptionalLong;

/** Fences for seeding a store as an earlier leader would have left it. */
public final class Fences {

  private Fences() {}

  /** A current fence with {@code epoch}. */
  public static Fence atEpoch(long epoch) {
    return new Fence() {
      @Override
      public OptionalLong fencingEpoch() {
        return OptionalLong.of(epoch);
      }

      @Override
      public boolean isCurrent() {
        return true;
      }
    };
  }
}
