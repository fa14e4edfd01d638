package io.sf2loki.engine;

import io.sf2loki.pipeline.FakeTerm;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorException;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.StopSignal;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Coordinators for engine tests, one per campaign, sharing one history: each grants a term (epoch
 * 1, 2, ...) and holds it until the engine stops the round, then drains and releases it as the
 * lease coordinators do; or, when a campaign failure is queued, throws it instead of granting.
 */
final class ScriptedCoordinator implements Coordinator {

  /** The coordinators' shared script and history. */
  static final class Script implements Supplier<Coordinator> {
    private final Queue<CoordinatorException> campaignFailures = new ConcurrentLinkedQueue<>();
    private final AtomicLong epochs = new AtomicLong();
    final List<String> events = new CopyOnWriteArrayList<>();

    /** The next campaign throws {@code failure}, holding nothing. */
    Script failNextCampaign(CoordinatorException failure) {
      campaignFailures.add(failure);
      return this;
    }

    @Override
    public Coordinator get() {
      return new ScriptedCoordinator(this);
    }

    long campaigns() {
      return events.stream().filter(e -> e.startsWith("campaign")).count();
    }

    long releases() {
      return events.stream().filter(e -> e.startsWith("release")).count();
    }
  }

  private final Script script;

  private ScriptedCoordinator(Script script) {
    this.script = script;
  }

  @Override
  public void run(LeadershipListener listener, StopSignal stop) throws InterruptedException {
    script.events.add("campaign");
    CoordinatorException failure = script.campaignFailures.poll();
    if (failure != null) {
      throw failure;
    }
    FakeTerm term = new FakeTerm(script.epochs.incrementAndGet());
    script.events.add("acquire " + term.epoch());
    listener.onAcquire(term);
    while (!stop.awaitStop(Duration.ofMinutes(1))) {
      // hold until the engine resigns or stops
    }
    listener.onLose(term); // drains and commits while still holding
    term.revoke();
    script.events.add("release " + term.epoch());
  }

  @Override
  public void close() {}
}
