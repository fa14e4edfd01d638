package io.sf2loki.testkit.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code simulate} command line.
 *
 * @param salesforcePort loopback port of the fake Salesforce; 0 picks an ephemeral one
 * @param lokiPort loopback port of the fake Loki; 0 picks an ephemeral one
 * @param pubsubPort loopback port of the fake Pub/Sub API (plaintext gRPC); 0 picks an ephemeral
 *     one
 * @param otlpPort loopback port of the fake OTLP logs receiver (for {@code sink.type = otlp}); 0
 *     picks an ephemeral one
 * @param seed varies the generated rows; the same seed regenerates the same rows
 * @param period a new file per event type every this long
 * @param rows rows per generated file
 * @param eventTypes the EventLogFile event types to generate
 * @param pubsubPeriod one Pub/Sub event (a login, an order shipped or an Account change) every this
 *     long
 * @param clientId the connected app's client id the daemon must present
 * @param clientSecret the client secret the daemon must present
 */
public record SimulatorOptions(
    int salesforcePort,
    int lokiPort,
    int pubsubPort,
    int otlpPort,
    long seed,
    Duration period,
    long rows,
    List<String> eventTypes,
    Duration pubsubPeriod,
    String clientId,
    String clientSecret) {

  /** The usage text. */
  public static final String USAGE =
      """
      usage: simulate [--salesforce-port P] [--loki-port Q] [--pubsub-port R] [--otlp-port S]
                      [--seed N] [--period 5s] [--rows 20] [--event-types Login,API,ReportExport,URI]
                      [--pubsub-period 500ms] [--client-id ID] [--client-secret SECRET]
        ports default to 18080 (Salesforce), 13100 (Loki), 17443 (Pub/Sub, plaintext gRPC) and
        14318 (OTLP/HTTP logs); 0 picks a free port.""";

  public SimulatorOptions {
    eventTypes = List.copyOf(eventTypes);
    if (eventTypes.isEmpty()) {
      throw new IllegalArgumentException("--event-types must name at least one type");
    }
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("--period must be positive");
    }
    if (pubsubPeriod.isNegative() || pubsubPeriod.isZero()) {
      throw new IllegalArgumentException("--pubsub-period must be positive");
    }
    if (rows < 1) {
      throw new IllegalArgumentException("--rows must be at least 1");
    }
  }

  /** The demo defaults. */
  public static SimulatorOptions defaults() {
    return new SimulatorOptions(
        18080,
        13100,
        17443,
        14318,
        1,
        Duration.ofSeconds(5),
        20,
        List.of("Login", "API", "ReportExport", "URI"),
        Duration.ofMillis(500),
        "sf2loki-demo",
        "demo-secret");
  }

  /**
   * Parses the arguments after {@code simulate}.
   *
   * @throws IllegalArgumentException naming the bad argument
   */
  public static SimulatorOptions parse(List<String> args) {
    SimulatorOptions o = defaults();
    int sfPort = o.salesforcePort();
    int lokiPort = o.lokiPort();
    int pubsubPort = o.pubsubPort();
    int otlpPort = o.otlpPort();
    long seed = o.seed();
    Duration period = o.period();
    long rows = o.rows();
    List<String> types = new ArrayList<>(o.eventTypes());
    Duration pubsubPeriod = o.pubsubPeriod();
    String clientId = o.clientId();
    String clientSecret = o.clientSecret();
    for (int i = 0; i < args.size(); i += 2) {
      String name = args.get(i);
      if (i + 1 >= args.size()) {
        throw new IllegalArgumentException(name + " needs a value");
      }
      String value = args.get(i + 1);
      switch (name) {
        case "--salesforce-port" -> sfPort = port(name, value);
        case "--loki-port" -> lokiPort = port(name, value);
        case "--pubsub-port" -> pubsubPort = port(name, value);
        case "--otlp-port" -> otlpPort = port(name, value);
        case "--seed" -> seed = number(name, value);
        case "--period" -> period = duration(name, value);
        case "--rows" -> rows = number(name, value);
        case "--event-types" -> types = Arrays.asList(value.split("\\s*,\\s*"));
        case "--pubsub-period" -> pubsubPeriod = duration(name, value);
        case "--client-id" -> clientId = value;
        case "--client-secret" -> clientSecret = value;
        default -> throw new IllegalArgumentException("unknown option " + name);
      }
    }
    return new SimulatorOptions(
        sfPort,
        lokiPort,
        pubsubPort,
        otlpPort,
        seed,
        period,
        rows,
        types,
        pubsubPeriod,
        clientId,
        clientSecret);
  }

  private static int port(String name, String value) {
    long port = number(name, value);
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(name + " must be 0..65535 (got " + value + ")");
    }
    return (int) port;
  }

  private static long number(String name, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number (got " + value + ")", e);
    }
  }

  /** {@code 500ms}, {@code 5s}, {@code 2m}. */
  static Duration duration(String name, String value) {
    try {
      if (value.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
      }
      if (value.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
      }
      if (value.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must look like 500ms, 5s or 2m", e);
    }
    throw new IllegalArgumentException(
        name + " must look like 500ms, 5s or 2m (got " + value + ")");
  }
}
