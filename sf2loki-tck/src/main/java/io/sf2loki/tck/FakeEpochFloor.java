package io.sf2loki.tck;

import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.StoreUnavailableException;
import java.util.OptionalLong;

/** An {@link EpochFloor} whose value the test sets; it can also be made to throw. Thread-safe. */
public final class FakeEpochFloor implements EpochFloor {

  private volatile OptionalLong value = OptionalLong.empty();
  private volatile boolean failing;

  /** A floor at {@code epoch}. */
  public static FakeEpochFloor of(long epoch) {
    FakeEpochFloor floor = new FakeEpochFloor();
    floor.set(epoch);
    return floor;
  }

  /** From now on the floor is {@code epoch}. */
  public void set(long epoch) {
    value = OptionalLong.of(epoch);
  }

  /** While {@code fail}, reads throw {@link StoreUnavailableException} (the store is down). */
  public void failing(boolean fail) {
    failing = fail;
  }

  @Override
  public OptionalLong persistedEpoch() {
    if (failing) {
      throw new StoreUnavailableException("memory://state: injected read failure");
    }
    return value;
  }
}
