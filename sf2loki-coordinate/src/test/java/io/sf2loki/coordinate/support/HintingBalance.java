package io.sf2loki.coordinate.support;

import io.sf2loki.spi.ShardBalance;
import io.sf2loki.tck.SimulatedTime;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A shard balance that refuses the first {@code refusals} reservations and answers {@code hint}
 * when asked how soon room may open, recording the simulated time of every reservation asked.
 */
public final class HintingBalance implements ShardBalance {

  private final SimulatedTime time;
  private final Optional<Duration> hint;
  private int refusals;
  private final List<Long> askedAtNanos = new CopyOnWriteArrayList<>();

  public HintingBalance(SimulatedTime time, int refusals, Optional<Duration> hint) {
    this.time = time;
    this.refusals = refusals;
    this.hint = hint;
  }

  /** The simulated times (nanos) at which a reservation was asked. */
  public List<Long> askedAtNanos() {
    return askedAtNanos;
  }

  @Override
  public void tick() {}

  @Override
  public synchronized Optional<Reservation> reserve(String shard) {
    askedAtNanos.add(time.nanos());
    if (refusals > 0) {
      refusals--;
      return Optional.empty();
    }
    return Optional.of(Reservation.FREE);
  }

  @Override
  public Optional<Duration> roomMayOpenIn() {
    return hint;
  }

  @Override
  public void close() {}
}
