package io.sf2loki.daemon;

import static io.sf2loki.daemon.EngineRuns.runAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.filelease.FileLeaseConfig;
import io.sf2loki.coordinate.filelease.FileLeaseCoordinator;
import io.sf2loki.coordinate.filelease.FileLeaseDocument;
import io.sf2loki.coordinate.filelease.FileLeaseFile;
import io.sf2loki.coordinate.filelease.FileLeaseInspector;
import io.sf2loki.coordinate.filelease.FileLeaseStorage;
import io.sf2loki.coordinate.filelease.LeaseRead;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.EngineSettings;
import io.sf2loki.engine.EngineStatus;
import io.sf2loki.engine.Environments;
import io.sf2loki.engine.FailurePolicy;
import io.sf2loki.engine.TermSources;
import io.sf2loki.pipeline.FakeCheckpointStore;
import io.sf2loki.pipeline.ScriptedSink;
import io.sf2loki.pipeline.SourceFailedException;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.LeaseInfo;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.SourceContext;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No thread dies silently: an unexpected exception or {@link Error} in a source, a lane, the term's
 * thread or the coordinator's ends the engine as {@link EngineOutcome.Failed} (never {@code
 * Finished}, so never exit 0), with the pipeline stopped and the lease released at once for a
 * standby (a 60s ttl that has not run out shows as released only when it was given back). Such a
 * failure is classified {@code unexpected}, permanent: with one attempt allowed here, the first
 * ends the engine.
 */
class UnexpectedFailureEndsTheTermTest {

  private static final Duration TTL = Duration.ofSeconds(60);

  @TempDir Path dir;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final FakeCheckpointStore store = new FakeCheckpointStore();

  /** One attempt: the first permanent failure ends the engine. */
  private static final FailurePolicy ONE_ATTEMPT =
      new FailurePolicy(1, Duration.ofMillis(1), Duration.ofMillis(4));

  /** What the tests inject: no JVM throws this by itself. */
  static final class InjectedError extends Error {
    private static final long serialVersionUID = 1L;

    InjectedError(String where) {
      super("injected into " + where);
    }
  }

  /** The lease file, whose next read throws once {@link #breakNextRead} armed it. */
  private static final class BreakableLease implements FileLeaseStorage {
    private final FileLeaseFile file;
    private final AtomicBoolean breakNext = new AtomicBoolean();

    BreakableLease(Path path) {
      this.file = new FileLeaseFile(path);
    }

    void breakNextRead() {
      breakNext.set(true);
    }

    @Override
    public LeaseRead read() {
      if (breakNext.getAndSet(false)) {
        throw new InjectedError("the coordinator's renewal");
      }
      return file.read();
    }

    @Override
    public void write(FileLeaseDocument document) throws IOException {
      file.write(document);
    }

    @Override
    public String location() {
      return file.location();
    }
  }

  /** Emits one entry, then dies of {@code error}. */
  private static Source dyingOf(Error error) {
    return new Source() {
      @Override
      public String name() {
        return "dying";
      }

      @Override
      public void run(SourceContext ctx) throws Exception {
        new CountingSource(1, Duration.ZERO).run(ctx);
        throw error;
      }
    };
  }

  private Path lease() {
    return dir.resolve("leader.lease");
  }

  private EngineOutcome runUntilItEnds(
      BreakableLease lease, Sink sink, TermSources sources, Runnable whileLeading)
      throws Exception {
    FileLeaseConfig config =
        new FileLeaseConfig(lease(), TTL, Duration.ofSeconds(2), Optional.of("node-a"));
    CoordinatorEnvironment coordination =
        new CoordinatorEnvironment(
            Clock.systemUTC(), Ticker.SYSTEM, Optional.empty(), registry, Map.of());
    try (Engine engine =
        Engine.builder(
                () -> new FileLeaseCoordinator(lease, "node-a", config, coordination, Sleeper.REAL),
                store,
                sink,
                sources,
                Environments.engine(registry))
            .settings(EngineSettings.defaults().withFailures(ONE_ATTEMPT))
            .shutdownGrace(TestTiming.seconds(5))
            .build()) {
      var run = runAsync(engine, new StopTrigger());
      // a claim slower than the verify pause (fsync on a loaded machine) is abandoned and held off
      // by design, which can put leadership off by up to a TTL
      await()
          .atMost(TTL.plus(TestTiming.seconds(20)))
          .until(() -> run.isDone() || engine.status() instanceof EngineStatus.Leading);
      whileLeading.run();
      return run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private EngineOutcome runUntilItEnds(Sink sink, TermSources sources) throws Exception {
    return runUntilItEnds(new BreakableLease(lease()), sink, sources, () -> {});
  }

  private static void endedUnexpectedly(EngineOutcome outcome, Throwable cause) {
    assertThat(outcome)
        .isInstanceOfSatisfying(
            EngineOutcome.Failed.class,
            f -> {
              assertThat(f.cause()).isSameAs(cause);
              assertThat(f.failure().reason()).isEqualTo("unexpected");
              assertThat(f.failure().isPermanent()).isTrue();
              assertThat(f.attempts()).isEqualTo(1);
            });
  }

  private LeaseInfo.State leaseState() {
    return new FileLeaseInspector(lease(), Clock.systemUTC()).inspect().state();
  }

  @Test
  void anErrorInASourceEndsTheEngineAsFailedAndReleasesTheLease() throws Exception {
    InjectedError error = new InjectedError("a source");

    EngineOutcome outcome = runUntilItEnds(new ScriptedSink(), () -> List.of(dyingOf(error)));

    assertThat(outcome)
        .isInstanceOfSatisfying(
            EngineOutcome.Failed.class,
            f -> assertThat(f.cause()).isInstanceOf(SourceFailedException.class).hasCause(error));
    assertThat(leaseState()).isEqualTo(LeaseInfo.State.EXPIRED);
  }

  @Test
  void anErrorInALaneEndsTheEngineAsFailedAndReleasesTheLease() throws Exception {
    InjectedError error = new InjectedError("a lane's push");
    Sink broken =
        batch -> {
          throw error;
        };

    EngineOutcome outcome =
        runUntilItEnds(broken, () -> List.of(new CountingSource(Long.MAX_VALUE, Duration.ZERO)));

    assertThat(outcome).satisfies(o -> endedUnexpectedly(o, error));
    assertThat(leaseState()).isEqualTo(LeaseInfo.State.EXPIRED);
  }

  @Test
  void anErrorOnTheTermsThreadEndsTheEngineAsFailedAndReleasesTheLease() throws Exception {
    InjectedError error = new InjectedError("the term's pipeline start");
    store.beforeLoad(
        () -> {
          throw error;
        });

    EngineOutcome outcome =
        runUntilItEnds(
            new ScriptedSink(), () -> List.of(new CountingSource(Long.MAX_VALUE, Duration.ZERO)));

    assertThat(outcome).satisfies(o -> endedUnexpectedly(o, error));
    assertThat(leaseState()).isEqualTo(LeaseInfo.State.EXPIRED);
  }

  @Test
  void sourcesThatCannotBeBuiltEndTheEngineAsFailedAndReleaseTheLease() throws Exception {
    IllegalStateException bug = new IllegalStateException("a source factory's bug");

    EngineOutcome outcome =
        runUntilItEnds(
            new ScriptedSink(),
            () -> {
              throw bug;
            });

    assertThat(outcome).satisfies(o -> endedUnexpectedly(o, bug));
    assertThat(leaseState()).isEqualTo(LeaseInfo.State.EXPIRED);
  }

  @Test
  void anErrorInTheCoordinatorsRenewalEndsTheEngineAsFailedAndReleasesTheLease() throws Exception {
    BreakableLease lease = new BreakableLease(lease());
    CountingSource endless = new CountingSource(Long.MAX_VALUE, Duration.ofMillis(5));

    EngineOutcome outcome =
        runUntilItEnds(lease, new ScriptedSink(), () -> List.of(endless), lease::breakNextRead);

    assertThat(outcome)
        .isInstanceOfSatisfying(
            EngineOutcome.Failed.class,
            f -> assertThat(f.cause()).isInstanceOf(InjectedError.class));
    assertThat(leaseState()).isEqualTo(LeaseInfo.State.EXPIRED);
  }
}
