package io.sf2loki.source.eventlogobjects;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.ClientCredentialsGrant;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Secret;
import io.sf2loki.spi.SourceEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * The process {@link EloRestartBenchmark} starts, kills with SIGKILL and restarts: the
 * eventlog_objects source with its defaults over the given Event Log Objects, from the window
 * start, on the simulated clock of the parent ({@code GET /now}, {@code POST /advance?nanos=N} on
 * the parent's control port), delivering through {@link SimulatedDelivery} to the fake Loki and
 * committing its checkpoints to a JSON file (written to a temporary file, then atomically renamed
 * over the old one: a kill leaves the old or the new, never half of one). Exits 0 at the end time.
 *
 * <p>Arguments: {@code salesforceUrl lokiPushUrl controlUrl stateFile start end objects seed}.
 */
public final class EloBenchChild {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CONTROL =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private EloBenchChild() {}

  public static void main(String[] args) throws Exception {
    URI salesforce = URI.create(args[0]);
    URI push = URI.create(args[1]);
    String control = args[2];
    Path state = Path.of(args[3]);
    Instant start = Instant.parse(args[4]);
    Instant end = Instant.parse(args[5]);
    List<String> objects = List.of(args[6].split(","));
    long seed = Long.parseLong(args[7]);
    MutableClock clock = new MutableClock(Instant.parse(call(control + "/now", "GET")));
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    Map<String, String> committed = load(state);
    try (CloseableHttpClient http =
        SalesforceHttpClients.create(Duration.ofSeconds(30), Optional.empty())) {
      // No Date-header sampling: the fake's Date is real time, the run's clock is simulated.
      SalesforceRestClient rest =
          new SalesforceRestClient(
              http,
              new OAuthTokenProvider(
                  http,
                  salesforce,
                  new ClientCredentialsGrant("bench", Secret.of("bench-secret")),
                  Duration.ofHours(1),
                  clock,
                  Backoff.NONE,
                  d -> {},
                  metrics),
              "60.0",
              t -> {});
      String list =
          objects.stream().map(o -> "{name = " + o + "}").collect(Collectors.joining(", "));
      EventLogObjectsConfig config =
          ObjectsHarness.config(
              "enabled = true, objects = [" + list + "], start = \"" + start + "\"");
      Random random = new Random(seed ^ System.nanoTime());
      SourceEnvironment env =
          new SourceEnvironment(
              clock,
              () -> clock.instant().getEpochSecond() * 1_000_000_000L + clock.instant().getNano(),
              random,
              new NamedThreadFactory("elo-bench"),
              metrics,
              Map.of("job", "sf2loki"));
      SimulatedDelivery delivery =
          new SimulatedDelivery(
              clock,
              end,
              push,
              committed,
              c -> save(state, c),
              by -> Instant.parse(call(control + "/advance?nanos=" + by.toNanos(), "POST")));
      try (EventLogObjectsSource source =
          EventLogObjectsSourceProvider.create(
              config, rest, clock::instant, env, () -> random.nextDouble(-1, 1), () -> {})) {
        source.run(delivery);
      }
    }
  }

  private static Map<String, String> load(Path state) throws IOException {
    if (!Files.exists(state)) {
      return new HashMap<>();
    }
    return JSON.readValue(state.toFile(), new TypeReference<Map<String, String>>() {});
  }

  private static void save(Path state, Map<String, String> checkpoints) {
    Path tmp = state.resolveSibling(state.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, JSON.writeValueAsString(checkpoints));
      Files.move(tmp, state, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String call(String url, String method) throws IOException, InterruptedException {
    HttpResponse<String> r =
        CONTROL.send(
            HttpRequest.newBuilder(URI.create(url))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException(url + " answered " + r.statusCode());
    }
    return r.body();
  }
}
