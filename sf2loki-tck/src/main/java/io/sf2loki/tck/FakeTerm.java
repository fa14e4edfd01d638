package io.sf2loki.tck;

import io.sf2loki.spi.Term;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A term a test controls: a writer's right to write at one epoch, current until {@link #lose()}.
 * Stands in for the terms a coordinator grants when a kit drives a store directly. Thread-safe.
 */
public final class FakeTerm implements Term {

  private final String holder;
  private final long epoch;
  private final boolean fenced;
  private volatile boolean current = true;

  /** A current, fenced term of {@code holder} at {@code epoch}. */
  public FakeTerm(String holder, long epoch) {
    this(holder, epoch, true);
  }

  private FakeTerm(String holder, long epoch, boolean fenced) {
    this.holder = Objects.requireNonNull(holder, "holder");
    this.epoch = epoch;
    this.fenced = fenced;
  }

  /** A term like the {@code noop} coordinator's: epoch 0 and no fencing epoch. */
  public static FakeTerm unfenced(String holder) {
    return new FakeTerm(holder, 0, false);
  }

  /** Ends the term: {@link #isCurrent()} is false from now on. Returns this term. */
  public FakeTerm lose() {
    current = false;
    return this;
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public OptionalLong fencingEpoch() {
    return fenced ? OptionalLong.of(epoch) : OptionalLong.empty();
  }

  @Override
  public String holder() {
    return holder;
  }

  @Override
  public boolean isCurrent() {
    return current;
  }

  @Override
  public String describe() {
    return holder + " (epoch " + epoch + ")";
  }

  @Override
  public String toString() {
    return "FakeTerm[" + describe() + (current ? ", current]" : ", ended]");
  }
}
