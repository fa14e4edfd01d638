package io.sf2loki.coordinate.support;

import io.sf2loki.coordinate.filelease.FileLeaseDocument;
import io.sf2loki.coordinate.filelease.FileLeaseStorage;
import io.sf2loki.coordinate.filelease.LeaseRead;
import io.sf2loki.tck.SimulatedTime;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Forwards to a real lease file and injects faults at named points: a simulated pause before the
 * next renewal write (after the read that confirmed ownership), unreadable reads, failing writes, a
 * given number of failing writes, an outage of both for a while.
 */
public final class FaultyLeaseStorage implements FileLeaseStorage {

  private final FileLeaseStorage delegate;
  private final SimulatedTime time;
  private volatile Duration pauseBeforeNextWrite = Duration.ZERO;
  private volatile boolean readsFail;
  private volatile boolean writesFail;
  private final AtomicInteger writesToFail = new AtomicInteger();
  private volatile long downUntilNanos = Long.MIN_VALUE;

  public FaultyLeaseStorage(FileLeaseStorage delegate, SimulatedTime time) {
    this.delegate = delegate;
    this.time = time;
  }

  /** The next write first sleeps {@code pause} of simulated time (a GC pause, a stalled mount). */
  public void pauseBeforeNextWrite(Duration pause) {
    pauseBeforeNextWrite = pause;
  }

  public void readsFail(boolean fail) {
    readsFail = fail;
  }

  public void writesFail(boolean fail) {
    writesFail = fail;
  }

  /** The next {@code count} writes fail (a transient glitch), the ones after them succeed. */
  public void failNextWrites(int count) {
    writesToFail.set(count);
  }

  private boolean glitch() {
    return writesToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
  }

  /** Every read is unknown and every write fails for {@code outage} of simulated time from now. */
  public void downFor(Duration outage) {
    downUntilNanos = time.nanos() + outage.toNanos();
  }

  private boolean down() {
    return time.nanos() < downUntilNanos;
  }

  @Override
  public LeaseRead read() {
    if (down()) {
      return new LeaseRead.Unknown("injected: storage unreachable");
    }
    return readsFail ? new LeaseRead.Unknown("injected EIO") : delegate.read();
  }

  @Override
  public void write(FileLeaseDocument document) throws IOException {
    Duration pause = pauseBeforeNextWrite;
    if (!pause.isZero()) {
      pauseBeforeNextWrite = Duration.ZERO;
      try {
        time.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted during injected pause", e);
      }
    }
    if (writesFail || down() || glitch()) {
      throw new IOException("injected write failure");
    }
    delegate.write(document);
  }

  @Override
  public String location() {
    return delegate.location();
  }
}
