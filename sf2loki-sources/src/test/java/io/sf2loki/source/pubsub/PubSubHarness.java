package io.sf2loki.source.pubsub;

import com.google.protobuf.ByteString;
import com.typesafe.config.ConfigFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.model.LogEntry;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.ClientCredentialsGrant;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Secret;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.spi.Ticker;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/** A fake org, a fake Pub/Sub and a source wired to both, run on its own thread. */
final class PubSubHarness implements AutoCloseable {

  final FakeSalesforce sf = FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
  final FakePubSub pubsub;
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final CloseableHttpClient http =
      SalesforceHttpClients.create(TestTiming.seconds(10), Optional.empty());
  final OAuthTokenProvider tokens =
      new OAuthTokenProvider(
          http,
          sf.baseUrl(),
          new ClientCredentialsGrant("cid", Secret.of("secret")),
          Duration.ofHours(1),
          Clock.systemUTC(),
          Backoff.NONE,
          d -> {},
          metrics);
  final SalesforceRestClient rest = new SalesforceRestClient(http, tokens, "60.0", t -> {});

  PubSubHarness(FakePubSub.Builder fake) throws Exception {
    pubsub = fake.tokens(sf::isValidToken).start();
  }

  /** A running source and its context. */
  final class Run implements AutoCloseable {
    final StreamingContext ctx;
    final FutureTask<Void> task;

    Run(StreamingContext ctx, PubSubSource source) {
      this.ctx = ctx;
      Callable<Void> body =
          () -> {
            source.run(ctx);
            return null;
          };
      this.task = new FutureTask<>(body);
      Thread t = new Thread(task, "pubsub-source-under-test");
      t.setDaemon(true);
      t.start();
    }

    /** Stops the source and waits for its run to end. */
    @Override
    public void close()
        throws java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
      ctx.stop();
      try {
        task.get(TestTiming.seconds(20).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** Starts a source with {@code body} over the test defaults, from {@code committed}. */
  Run start(String body, Map<String, String> committed) {
    return start(body, new StreamingContext(committed));
  }

  /** Starts a source with {@code body} over the test defaults on {@code ctx}. */
  Run start(String body, StreamingContext ctx) {
    ConfigReader root =
        ConfigReader.of(
            ConfigFactory.parseString(
                    "sources.pubsub { endpoint = \""
                        + pubsub.target()
                        + "\", plaintext = true, reconnect_base = 20ms, reconnect_max = 200ms, "
                        + body
                        + "}")
                .withFallback(ConfigFactory.parseResources("reference.conf"))
                .resolve());
    PubSubConfig config = PubSubConfig.bind(root.section("sources.pubsub"));
    root.throwIfInvalid();
    SourceEnvironment env =
        new SourceEnvironment(
            Clock.systemUTC(),
            Ticker.SYSTEM,
            new Random(7),
            new NamedThreadFactory("pubsub-test"),
            metrics,
            Map.of("job", "sf2loki"));
    PubSubSource source =
        PubSubSourceProvider.create(config, rest, tokens, pubsub::orgId, env, () -> {});
    return new Run(ctx, source);
  }

  /** Publishes LoginEventStream events {@code ev-from} on, {@code n} of them; their replay ids. */
  List<ByteString> publish(int from, int n) {
    List<ByteString> ids = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      ids.add(
          pubsub.publish(
              FakePubSub.LOGIN,
              Map.of(
                  "Username", "u" + i + "@example.com",
                  "EventDate", 1_780_000_000_000L + i,
                  "EventIdentifier", "ev-" + i)));
    }
    return ids;
  }

  /** The {@code EventIdentifier} of each line. */
  static List<String> identifiers(List<LogEntry> lines) {
    return lines.stream()
        .map(e -> e.line().replaceAll(".*\"EventIdentifier\": \"([^\"]+)\".*", "$1"))
        .toList();
  }

  /** {@code name{topic}}'s count, 0 when absent. */
  double counter(String name, String topic) {
    var c = metrics.find(name).tag("topic", topic).counter();
    return c == null ? 0 : c.count();
  }

  @Override
  public void close() throws java.io.IOException {
    pubsub.close();
    sf.close();
    http.close();
  }
}
