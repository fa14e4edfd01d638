package io.sf2loki.testkit.sim;

import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A fake Salesforce org generating EventLogFile activity and a fake Loki, on loopback ports, for
 * {@code just demo} and manual experiments:
 *
 * <pre>
 * java -jar sf2loki-testkit.jar simulate --salesforce-port 18080 --loki-port 13100 --seed 1
 * java -jar sf2loki-testkit.jar report --loki-url http://127.0.0.1:13100
 * </pre>
 *
 * <p>{@link #start} is usable from tests too; {@link #close()} stops both servers.
 */
public final class Simulator implements AutoCloseable {

  private final SimulatorOptions options;
  private final FakeSalesforce salesforce;
  private final FakeLoki loki;

  private Simulator(SimulatorOptions options, FakeSalesforce salesforce, FakeLoki loki) {
    this.options = options;
    this.salesforce = salesforce;
    this.loki = loki;
  }

  /**
   * Starts both fakes and the activity generator.
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
      loki.close();
      throw new UncheckedIOException(
          "cannot start the fake Salesforce on port " + options.salesforcePort(), e.getCause());
    }
    salesforce.startActivity(options.period(), options.eventTypes(), options.rows());
    return new Simulator(options, salesforce, loki);
  }

  /** The fake Salesforce org. */
  public FakeSalesforce salesforce() {
    return salesforce;
  }

  /** The fake Loki. */
  public FakeLoki loki() {
    return loki;
  }

  /** What a daemon needs to point at the simulator, as configuration lines. */
  public List<String> describe() {
    return List.of(
        "sf2loki simulator running (seed " + options.seed() + ")",
        "  salesforce.login_url     = \"" + salesforce.baseUrl() + "\"",
        "  salesforce.auth_mode     = client_credentials",
        "  salesforce.client_id     = \"" + options.clientId() + "\"",
        "  salesforce.client_secret = \"" + options.clientSecret() + "\"",
        "  sink.loki.url            = \"" + loki.baseUri() + "\"",
        "activity: one Hourly EventLogFile per type "
            + options.eventTypes()
            + " every "
            + options.period().toMillis()
            + " ms, "
            + options.rows()
            + " rows each",
        "inspect: GET "
            + loki.baseUri()
            + "/testkit/stats, /testkit/entries; GET "
            + salesforce.baseUrl()
            + "/testkit/stats",
        "stop with Ctrl-C or SIGTERM");
  }

  @Override
  public void close() {
    salesforce.close();
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
