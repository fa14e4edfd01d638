package io.sf2loki.pipeline;

import io.sf2loki.spi.Term;
import java.util.concurrent.atomic.AtomicBoolean;

/** A leadership term that a test can revoke. */
public final class FakeTerm implements Term {

  private final long epoch;
  private final AtomicBoolean current = new AtomicBoolean(true);

  public FakeTerm(long epoch) {
    this.epoch = epoch;
  }

  public void revoke() {
    current.set(false);
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public String holder() {
    return "test-holder";
  }

  @Override
  public boolean isCurrent() {
    return current.get();
  }
}
