package io.sf2loki.connect;

import io.sf2loki.engine.FailureClassifier;
import io.sf2loki.engine.FailurePolicy;
import io.sf2loki.engine.ShardSources;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.OrgSession;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.StopTrigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One org's sources inside a task, run as the engine runs a term: the org's session logs in, fresh
 * sources start, each on a thread of its own; when one fails, the others stop and, after a backoff,
 * fresh ones resume from the committed offsets. A transient failure is retried for as long as it
 * lasts, a permanent one {@code service.permanent_failure_attempts} times in a row before the org
 * is failed, which fails the task (Connect shows it; a restart through the REST API retries).
 */
final class OrgRun {

  private static final Logger LOG = LoggerFactory.getLogger(OrgRun.class);

  private final String org;
  private final ShardSources sources;
  private final FailurePolicy policy;
  private final Backoff backoff;
  private final ThreadFactory threads;
  private final Function<StopTrigger, OrgContext> contexts;
  private final FailureClassifier classifier;
  private final StopTrigger stopped = new StopTrigger();
  private final AtomicReference<StopTrigger> run = new AtomicReference<>(new StopTrigger());
  private final AtomicReference<String> failure = new AtomicReference<>();
  private Thread supervisor;

  /**
   * @param contexts the context of one run of the org's sources, given its stop signal
   */
  OrgRun(
      String org,
      ShardSources sources,
      FailurePolicy policy,
      Backoff backoff,
      ThreadFactory threads,
      Function<StopTrigger, OrgContext> contexts) {
    this.org = org;
    this.sources = sources;
    this.policy = policy;
    this.backoff = backoff;
    this.threads = threads;
    this.contexts = contexts;
    this.classifier = new FailureClassifier("the Connect offsets of org " + org);
  }

  void start() {
    supervisor = threads.newThread(this::supervise);
    supervisor.setName("sf2loki-connect-org-" + org);
    supervisor.start();
  }

  /** Why the org ended after a failure: the task fails with it. */
  Optional<String> failure() {
    return Optional.ofNullable(failure.get());
  }

  /** Asks the sources to stop; {@link #await} waits for them. */
  void requestStop() {
    stopped.requestStop();
    run.get().requestStop();
  }

  /** Waits up to {@code grace} for the sources to end, then closes the org's session. */
  void await(Duration grace) throws InterruptedException {
    if (supervisor != null) {
      supervisor.join(Math.max(1, grace.toMillis()));
    }
    sources.session().ifPresent(OrgSession::close);
  }

  private void supervise() {
    int permanentInARow = 0;
    int attempt = 0;
    while (!stopped.isStopRequested()) {
      try {
        runOnce();
        return; // every source is done (a finite run) or the task stops
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        if (stopped.isStopRequested()) {
          return;
        }
        FailureClass failed = classifier.classify(e);
        permanentInARow = failed.isPermanent() ? permanentInARow + 1 : 0;
        if (permanentInARow >= policy.permanentAttempts()) {
          failure.set("org " + org + " failed: " + describe(failed, e));
          LOG.error("org {} stopped after a permanent failure: {}", org, describe(failed, e), e);
          return;
        }
        var wait = backoff.delay(++attempt);
        LOG.warn(
            "org {}: the sources failed ({}); resuming from the committed offsets in {}",
            org,
            describe(failed, e),
            wait,
            e);
        try {
          if (stopped.awaitStop(wait)) {
            return;
          }
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static String describe(FailureClass failed, Throwable e) {
    return (failed.isPermanent() ? "permanent " : "transient ")
        + failed.reason()
        + (failed.resource().isEmpty() ? "" : " at " + failed.resource())
        + ": "
        + e.getMessage();
  }

  /** One run of fresh sources until all are done, one fails, or the task stops. */
  private void runOnce() throws Exception {
    StopTrigger stop = new StopTrigger();
    run.set(stop);
    if (stopped.isStopRequested()) {
      return;
    }
    if (sources.session().isPresent()) {
      sources.session().get().login();
    }
    OrgContext context = contexts.apply(stop);
    AtomicReference<Exception> first = new AtomicReference<>();
    List<Thread> running = new ArrayList<>();
    for (Source source : sources.sources().create()) {
      Thread thread =
          threads.newThread(
              () -> {
                try {
                  source.run(context);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (Exception e) {
                  if (first.compareAndSet(null, e)) {
                    stop.requestStop(); // the others end too: the next run starts them afresh
                  }
                }
              });
      thread.setName("sf2loki-connect-" + org + "-" + source.name());
      thread.start();
      running.add(thread);
    }
    try {
      for (Thread thread : running) {
        thread.join();
      }
    } catch (InterruptedException e) {
      stop.requestStop();
      running.forEach(Thread::interrupt);
      throw e;
    } finally {
      context.endRun();
    }
    if (first.get() != null) {
      throw first.get();
    }
  }
}
