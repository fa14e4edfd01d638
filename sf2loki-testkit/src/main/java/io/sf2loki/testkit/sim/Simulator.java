package io.sf2loki.testkit.sim;

import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.otlp.FakeOtlpLogs;
import io.sf2loki.testkit.otlp.LokiOtlpRules;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A fake Salesforce org generating EventLogFile activity, a fake Pub/Sub API publishing a trickle
 * of real-time events (logins, a platform event, Account changes), a fake Loki and a fake OTLP logs
 * receiver (applying Loki 3's OTLP label rules), on loopback ports, for {@code just demo} and
 * manual experiments:
 *
 * <pre>
 * java -jar sf2loki-testkit.jar simulate --salesforce-port 18080 --loki-port 13100 \
 *     --pubsub-port 17443 --seed 1
 * java -jar sf2loki-testkit.jar report --loki-url http://127.0.0.1:13100
 * </pre>
 *
 * <p>The fake Pub/Sub accepts the fake Salesforce's access tokens and its org id, so a daemon
 * authenticates to both with the same connected app. {@link #start} is usable from tests too;
 * {@link #close()} stops every server.
 */
public final class Simulator implements AutoCloseable {

  private final SimulatorOptions options;
  private final FakeSalesforce salesforce;
  private final FakeLoki loki;
  private final FakePubSub pubsub;
  private final PubSubTrickle trickle;
  private final FakeOtlpLogs otlp;

  private Simulator(
      SimulatorOptions options,
      FakeSalesforce salesforce,
      FakeLoki loki,
      FakePubSub pubsub,
      FakeOtlpLogs otlp,
      PubSubTrickle trickle) {
    this.options = options;
    this.salesforce = salesforce;
    this.loki = loki;
    this.pubsub = pubsub;
    this.otlp = otlp;
    this.trickle = trickle;
  }

  /**
   * Starts the fakes and the activity generators.
   *
   * @throws UncheckedIOException when a port cannot be bound
   */
  public static Simulator start(SimulatorOptions options) {
    FakeLoki loki;
    try {
      loki = FakeLoki.start(options.lokiPort(), LokiLimits.defaults(), Clock.systemUTC());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start the fake Loki on port " + options.lokiPort() + ": " + e.getMessage(), e);
    }
    FakeOtlpLogs otlp;
    try {
      // as Loki 3 with the otlp_config of docs/sinks/otlp.md: event_type, source and late are
      // labels
      otlp =
          FakeOtlpLogs.builder()
              .port(options.otlpPort())
              .rules(LokiOtlpRules.promoting(java.util.Set.of("event_type", "source", "late")))
              .start();
    } catch (IOException e) {
      loki.close();
      throw new UncheckedIOException(
          "cannot start the fake OTLP receiver on port "
              + options.otlpPort()
              + ": "
              + e.getMessage(),
          e);
    }
    FakeSalesforce salesforce;
    try {
      salesforce =
          FakeSalesforce.builder()
              .port(options.salesforcePort())
              .seed(options.seed())
              .clientId(options.clientId())
              .clientSecret(options.clientSecret())
              .build();
    } catch (UncheckedIOException e) {
      otlp.close();
      loki.close();
      throw new UncheckedIOException(
          "cannot start the fake Salesforce on port " + options.salesforcePort(), e.getCause());
    }
    FakePubSub pubsub;
    try {
      pubsub =
          FakePubSub.builder()
              .port(options.pubsubPort())
              .seed(options.seed())
              .tokens(salesforce::isValidToken)
              .standardTopics()
              .start();
    } catch (IOException e) {
      salesforce.close();
      otlp.close();
      loki.close();
      throw new UncheckedIOException(
          "cannot start the fake Pub/Sub on port " + options.pubsubPort() + ": " + e.getMessage(),
          e);
    }
    salesforce.startActivity(options.period(), options.eventTypes(), options.rows());
    PubSubTrickle trickle =
        PubSubTrickle.start(pubsub, options.seed(), options.pubsubPeriod(), Clock.systemUTC());
    return new Simulator(options, salesforce, loki, pubsub, otlp, trickle);
  }

  /** The fake Salesforce org. */
  public FakeSalesforce salesforce() {
    return salesforce;
  }

  /** The fake Loki. */
  public FakeLoki loki() {
    return loki;
  }

  /** The fake OTLP logs receiver, for a daemon run with {@code sink.type = otlp}. */
  public FakeOtlpLogs otlp() {
    return otlp;
  }

  /** The fake Pub/Sub API. */
  public FakePubSub pubsub() {
    return pubsub;
  }

  /** Pub/Sub events published so far, by topic. */
  public Map<String, Long> published() {
    return trickle.published();
  }

  /** What a daemon needs to point at the simulator, as configuration lines. */
  public List<String> describe() {
    return List.of(
        "sf2loki simulator running (seed " + options.seed() + ")",
        "  salesforce.login_url     = \"" + salesforce.baseUrl() + "\"",
        "  salesforce.auth_mode     = client_credentials",
        "  salesforce.client_id     = \"" + options.clientId() + "\"",
        "  salesforce.client_secret = \"" + options.clientSecret() + "\"",
        "  sources.pubsub.endpoint  = \"" + pubsub.target() + "\"",
        "  sources.pubsub.plaintext = true",
        "  sink.loki.url            = \"" + loki.baseUri() + "\"",
        "  (or sink.type = otlp, sink.otlp.url = \"" + otlp.uri() + "/otlp\")",
        "activity: one Hourly EventLogFile per type "
            + options.eventTypes()
            + " every "
            + options.period().toMillis()
            + " ms, "
            + options.rows()
            + " rows each",
        "pubsub: one event every "
            + options.pubsubPeriod().toMillis()
            + " ms on "
            + String.join(", ", FakePubSub.LOGIN, FakePubSub.ORDER, FakePubSub.ACCOUNT_CHANGE)
            + " (plaintext gRPC on port "
            + pubsub.uri().getPort()
            + ")",
        "inspect: GET "
            + loki.baseUri()
            + "/testkit/stats, /testkit/entries; GET "
            + salesforce.baseUrl()
            + "/testkit/stats",
        "stop with Ctrl-C or SIGTERM");
  }

  @Override
  public void close() {
    trickle.close();
    pubsub.close();
    salesforce.close();
    otlp.close();
    loki.close();
  }

  /** {@code simulate [options]} or {@code report [options]}; see {@link SimulatorOptions#USAGE}. */
  public static void main(String[] args) throws InterruptedException {
    List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
    String command = args.length == 0 ? "" : args[0];
    PrintStream out = System.out;
    try {
      switch (command) {
        case "simulate" -> simulate(SimulatorOptions.parse(rest), out);
        case "report" -> System.exit(Report.run(rest, out, System.err));
        default -> usage("unknown command '" + command + "'");
      }
    } catch (IllegalArgumentException e) {
      usage(e.getMessage());
    } catch (UncheckedIOException e) {
      System.err.println("simulator: " + e.getMessage());
      System.exit(1);
    }
  }

  private static void simulate(SimulatorOptions options, PrintStream out)
      throws InterruptedException {
    Simulator simulator = start(options);
    CountDownLatch killed = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  simulator.close();
                  killed.countDown();
                },
                "simulator-stop"));
    simulator.describe().forEach(out::println);
    out.flush();
    killed.await();
  }

  private static void usage(String problem) {
    System.err.println("simulator: " + problem);
    System.err.println(SimulatorOptions.USAGE);
    System.err.println(Report.USAGE);
    System.exit(2);
  }
}
