package io.sf2loki.daemon;

import static io.sf2loki.daemon.EngineRuns.runAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.daemon.http.HealthServer;
import io.sf2loki.daemon.http.Liveness;
import io.sf2loki.daemon.http.Readiness;
import io.sf2loki.daemon.metrics.MetricsPush;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.Environments;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One engine composed from HOCON as the daemon composes it, on a Prometheus registry served on
 * {@code /metrics} by the daemon's own health server (and pushed over OTLP when the config says
 * so), running on its own thread until closed.
 */
final class ComposedRun implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final PrometheusMeterRegistry registry = PrometheusRegistries.create("test");
  private final StopTrigger stop = new StopTrigger();
  private final MetricsPush push;
  private final Engine engine;
  private final HealthServer server;
  private final CompletableFuture<EngineOutcome> run;
  private final Duration shutdownGrace;

  private ComposedRun(String hocon, Map<String, String> variables) throws IOException {
    Sf2LokiConfig config =
        Sf2LokiConfig.bind(
            new ConfigLoader(getClass().getClassLoader(), variables).loadString(hocon),
            getClass().getClassLoader());
    push = DaemonService.pushFor(config, registry, Clock.systemUTC(), variables);
    engine = ConfiguredEngine.create(config, Environments.engine(push.registry()), variables);
    Readiness readiness =
        new Readiness(
            engine::status, config.service().unreadyAfterSinkFailing(), Clock.systemUTC());
    server =
        HealthServer.start(
            "127.0.0.1",
            0,
            new Liveness(engine::staleHeartbeat),
            readiness,
            registry::scrape,
            push.registry());
    run = runAsync(engine, stop);
    shutdownGrace = config.service().shutdownGrace();
  }

  /** {@code GET path} on this run's health server. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(TestTiming.seconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The value of the gauge {@code name} (without tags) in this run's registry. */
  double gauge(String name) {
    return registry.get(name).gauge().value();
  }

  /** The engine's outcome, once it ended by itself (a permanent failure, a finished run). */
  EngineOutcome outcome() throws ExecutionException, TimeoutException, InterruptedException {
    return run.get(TestTiming.seconds(60).toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Composes and starts the engine {@code hocon} describes. */
  static ComposedRun start(String hocon) throws IOException {
    return start(hocon, Map.of());
  }

  /** Composes and starts the engine {@code hocon} describes, in the process environment given. */
  static ComposedRun start(String hocon, Map<String, String> variables) throws IOException {
    return new ComposedRun(hocon, variables);
  }

  /**
   * The {@code sf2loki_} names this run exposes so far, as an operator sees them: the families of a
   * {@code /metrics} scrape, and every meter of the registry under its Prometheus name.
   */
  Set<String> exposed() throws IOException, InterruptedException {
    HttpResponse<String> scrape =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                .timeout(TestTiming.seconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(scrape.statusCode()).isEqualTo(200);
    Set<String> names = new TreeSet<>(MetricsReference.families(scrape.body()));
    for (Meter m : registry.getMeters()) {
      Meter.Id id = m.getId();
      String name =
          registry.config().namingConvention().name(id.getName(), id.getType(), id.getBaseUnit());
      boolean counter = id.getType() == Meter.Type.COUNTER;
      // the Prometheus client, not the naming convention, gives a counter its _total series
      names.add(counter && !name.endsWith("_total") ? name + "_total" : name);
    }
    return names;
  }

  /** Waits until every one of {@code names} is exposed; returns everything exposed then. */
  Set<String> awaitExposed(Set<String> names) {
    AtomicReference<Set<String>> seen = new AtomicReference<>(Set.of());
    try {
      await()
          .atMost(TestTiming.seconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                seen.set(exposed());
                return seen.get().containsAll(names);
              });
    } catch (ConditionTimeoutException e) {
      Set<String> missing = new TreeSet<>(names);
      missing.removeAll(seen.get());
      throw new AssertionError("the run never exposed " + missing, e);
    }
    return seen.get();
  }

  /** Stops the engine and waits for it to end as stopped, unless it had ended by itself. */
  @Override
  public void close() throws ExecutionException, TimeoutException {
    OptionalLong stopRequestedAt = OptionalLong.of(Ticker.SYSTEM.nanoTime());
    try {
      boolean endedByItself = run.isDone();
      stop.requestStop();
      EngineOutcome ended = run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
      if (!endedByItself) {
        assertThat(ended).isInstanceOf(EngineOutcome.Stopped.class);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while the engine stopped", e);
    } finally {
      engine.close();
      push.close(DaemonService.graceLeft(shutdownGrace, stopRequestedAt, Ticker.SYSTEM));
      server.close();
    }
  }
}
