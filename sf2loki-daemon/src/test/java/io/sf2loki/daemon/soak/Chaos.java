package io.sf2loki.daemon.soak;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Runs the two fault streams side by side until the chaos time is over and each stream has dealt
 * every kind it has: the leadership stream on the calling thread, the wire stream on its own.
 */
final class Chaos {

  /** One fault stream's way of injecting a fault. */
  @FunctionalInterface
  interface Injector {
    void inject(PlannedFault fault) throws IOException, InterruptedException;
  }

  private final Polling polling;
  private final List<String> dealt = Collections.synchronizedList(new ArrayList<>());

  Chaos(Polling polling) {
    this.polling = polling;
  }

  /**
   * Runs both streams for {@code length} (longer if a stream has not dealt every kind by then).
   *
   * @return every fault injected, in order, as {@code +<ms> <fault>} lines
   */
  List<String> run(
      Duration length,
      FaultSchedule leadership,
      Injector leadershipFaults,
      FaultSchedule wire,
      Injector wireFaults)
      throws IOException, InterruptedException {
    long start = polling.now();
    long end = start + length.toNanos();
    Throwable[] wireFailure = {null};
    Thread wireThread =
        new Thread(
            () -> {
              try {
                stream(wire, wireFaults, start, end);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (IOException | RuntimeException e) {
                wireFailure[0] = e;
              }
            },
            "soak-wire-faults");
    wireThread.start();
    try {
      stream(leadership, leadershipFaults, start, end);
    } finally {
      wireThread.join();
    }
    if (wireFailure[0] != null) {
      throw new IllegalStateException("the wire fault stream failed", wireFailure[0]);
    }
    return List.copyOf(dealt);
  }

  private void stream(FaultSchedule schedule, Injector injector, long start, long end)
      throws IOException, InterruptedException {
    while (polling.now() - end < 0 || !schedule.everyKindDealt()) {
      PlannedFault fault = schedule.next();
      injector.inject(fault);
      dealt.add("+" + polling.since(start).toMillis() + "ms " + fault);
      polling.sleeper().sleep(fault.pauseAfter());
    }
  }
}
