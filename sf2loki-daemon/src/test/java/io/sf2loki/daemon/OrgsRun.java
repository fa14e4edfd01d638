package io.sf2loki.daemon;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.daemon.http.HealthServer;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.Environments;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.testkit.TestTiming;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A deployment's shards composed from HOCON and run side by side exactly as the daemon runs them
 * ({@link ShardEngines}), with the daemon's probes and {@code /metrics} on its health server.
 */
final class OrgsRun implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final PrometheusMeterRegistry registry = PrometheusRegistries.create("test");
  private final StopTrigger stop = new StopTrigger();
  private final ShardEngines engines;
  private final HealthServer server;
  private final CompletableFuture<List<EngineOutcome>> run = new CompletableFuture<>();

  private OrgsRun(String hocon) throws IOException {
    Shards shards =
        Shards.bind(
            new ConfigLoader(getClass().getClassLoader(), Map.of()).loadString(hocon),
            getClass().getClassLoader());
    engines = ShardEngines.create(shards, Environments.engine(registry), Map.of());
    server =
        HealthServer.start(
            "127.0.0.1", 0, engines.liveness(), engines.readiness(), registry::scrape, registry);
    Thread thread =
        new Thread(
            () -> {
              try {
                run.complete(engines.run(stop));
              } catch (Exception e) {
                run.completeExceptionally(e);
              }
            },
            "shards-under-test");
    thread.start();
  }

  static OrgsRun start(String hocon) throws IOException {
    return new OrgsRun(hocon);
  }

  /** {@code GET path} on the run's health server. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(TestTiming.seconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The value of gauge {@code name} of org {@code org}. */
  double gauge(String name, String org) {
    return registry.get(name).tag("org", org).gauge().value();
  }

  /** The value of the process's gauge {@code name}, which has no {@code org} tag. */
  double gauge(String name) {
    return registry.get(name).tags(List.of()).gauge().value();
  }

  /** The count of the process's counter {@code name} with {@code tag = value}. */
  double counter(String name, String tag, String value) {
    return registry.get(name).tag(tag, value).counter().count();
  }

  /** How the engine of {@code org} ended, once it has. */
  Optional<EngineOutcome> ended(String org) {
    return engines.all().stream()
        .filter(r -> r.shard().org().orElseThrow().name().equals(org))
        .findFirst()
        .map(r -> r.ended().get());
  }

  /** True while some engine still runs. */
  boolean running() {
    return !run.isDone();
  }

  @Override
  public void close() throws ExecutionException, TimeoutException {
    try {
      stop.requestStop();
      run.get(TestTiming.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while the engines stopped", e);
    } finally {
      engines.close();
      server.close();
    }
  }
}
