package io.sf2loki.coordinate.support;

import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.StoreUnavailableException;
import java.util.OptionalLong;

/** An {@link EpochFloor} whose value the test sets; it can also be made to throw. */
public final class InMemoryEpochFloor implements EpochFloor {

  private volatile OptionalLong value = OptionalLong.empty();
  private volatile boolean failing;

  public static InMemoryEpochFloor of(long epoch) {
    InMemoryEpochFloor f = new InMemoryEpochFloor();
    f.set(epoch);
    return f;
  }

  public void set(long epoch) {
    value = OptionalLong.of(epoch);
  }

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
