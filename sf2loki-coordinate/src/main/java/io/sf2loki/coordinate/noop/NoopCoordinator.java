package io.sf2loki.coordinate.noop;

import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.StopSignal;
import io.sf2loki.spi.Term;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Always leader (operations §2.2): one term from {@code run} until stop, without an epoch fence
 * (the file store keeps its sidecar lock instead). {@code onLose} runs while the term is still
 * current so the final drain commits.
 */
public final class NoopCoordinator implements Coordinator {

  private static final Duration POLL = Duration.ofDays(1);
  private final String holder;
  private final AtomicBoolean started = new AtomicBoolean();

  /**
   * @param holder a name for messages, e.g. the host name
   */
  public NoopCoordinator(String holder) {
    this.holder = holder;
  }

  @Override
  public void run(LeadershipListener listener, StopSignal stop) throws InterruptedException {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("the noop coordinator can run once");
    }
    NoopTerm term = new NoopTerm(holder);
    listener.onAcquire(term);
    try {
      while (!stop.awaitStop(POLL)) {
        // always leader
      }
    } finally {
      try {
        listener.onLose(term);
      } finally {
        term.current.set(false);
      }
    }
  }

  @Override
  public void close() {}

  /** The single unfenced term. */
  private static final class NoopTerm implements Term {
    private final String holder;
    private final AtomicBoolean current = new AtomicBoolean(true);

    NoopTerm(String holder) {
      this.holder = holder;
    }

    @Override
    public long epoch() {
      return 0;
    }

    @Override
    public String holder() {
      return holder;
    }

    @Override
    public OptionalLong fencingEpoch() {
      return OptionalLong.empty();
    }

    @Override
    public boolean isCurrent() {
      return current.get();
    }

    @Override
    public String describe() {
      return holder + " (noop, unfenced)";
    }
  }
}
