package io.sf2loki.coordinate.filelease;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.coordinate.support.FencedStore;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.LeadershipListener;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.StoreException;
import io.sf2loki.spi.Term;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One sf2loki-like process for {@link FileLeaseTwoProcessTest}: campaigns with file_lease (ttl 2s,
 * renew 500ms) and, while it leads, commits epoch-fenced checkpoints to a real file store, like the
 * engine (a stamp at acquire, then a commit every 50 ms until a commit is fenced or the term is
 * lost). Reports on stdout: {@code acquired E}, {@code committed E N}, {@code fenced E N}, {@code
 * lost E}. Exits when its stdin closes.
 *
 * <p>Arguments: lease path, state path, holder name.
 */
public final class FileLeaseProcessMain {

  static final Duration TTL = Duration.ofSeconds(2);
  static final Duration RENEW = Duration.ofMillis(500);

  private FileLeaseProcessMain() {}

  public static void main(String[] args) throws Exception {
    Path lease = Path.of(args[0]);
    String name = args[2];
    FencedStore store = StoreKind.fileStore(Path.of(args[1]));
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            Clock.systemUTC(),
            Ticker.SYSTEM,
            Optional.of(store),
            new SimpleMeterRegistry(),
            Map.of());
    FileLeaseCoordinator coordinator =
        new FileLeaseCoordinator(
            new FileLeaseFile(lease),
            name,
            new FileLeaseConfig(lease, TTL, RENEW, Optional.of(name)),
            env,
            Sleeper.REAL);
    StopTrigger stop = new StopTrigger();
    Thread election =
        new Thread(
            () -> {
              try {
                coordinator.run(new Committer(store, name), stop);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "election");
    election.start();
    say("started");
    while (System.in.read() != -1) {
      // the parent keeps stdin open for as long as we should live
    }
    stop.requestStop();
    election.join(TestTiming.seconds(10).toMillis());
    System.exit(0);
  }

  static void say(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }

  /** Commits while leading; stops at the first fenced commit or at onLose. */
  private static final class Committer implements LeadershipListener {
    private final FencedStore store;
    private final String name;
    private Thread worker;
    private StopTrigger current;

    Committer(FencedStore store, String name) {
      this.store = store;
      this.name = name;
    }

    @Override
    public void onAcquire(Term term) {
      say("acquired " + term.epoch());
      StopTrigger stopRun = new StopTrigger();
      current = stopRun;
      worker = new Thread(() -> commitLoop(term, stopRun), "committer-" + term.epoch());
      worker.start();
    }

    @Override
    public void onLose(Term term) {
      current.requestStop();
      try {
        worker.join(TestTiming.seconds(5).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      say("lost " + term.epoch());
    }

    private void commitLoop(Term term, StopTrigger stopRun) {
      long n = 0;
      try {
        // the engine stamps the epoch at acquire, before the first pipeline commit
        store.commit(Map.of("leader", name), term);
        while (!stopRun.isStopRequested()) {
          n++;
          store.commit(Map.of("writer", name + ":" + term.epoch() + ":" + n), term);
          say("committed " + term.epoch() + " " + n);
          stopRun.awaitStop(Duration.ofMillis(50));
        }
      } catch (FencedException e) {
        say("fenced " + term.epoch() + " " + n);
      } catch (StoreException e) {
        say("store-error " + term.epoch() + " " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
