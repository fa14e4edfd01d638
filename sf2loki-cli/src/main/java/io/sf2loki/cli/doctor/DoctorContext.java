package io.sf2loki.cli.doctor;

import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.registry.Providers;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * What the checks of one run share: the validated configuration, the providers (to build probe
 * stores), the clock, the process environment and the lazily opened Salesforce session. Closing it
 * closes that session.
 */
public final class DoctorContext implements AutoCloseable {

  private final Sf2LokiConfig config;
  private final Providers providers;
  private final Clock clock;
  private final Map<String, String> variables;
  private SalesforceProbe salesforce;

  /**
   * @param variables the process environment (Kubernetes credentials, holder ids)
   */
  public DoctorContext(
      Sf2LokiConfig config, Providers providers, Clock clock, Map<String, String> variables) {
    this.config = Objects.requireNonNull(config, "config");
    this.providers = Objects.requireNonNull(providers, "providers");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.variables = Map.copyOf(variables);
  }

  Sf2LokiConfig config() {
    return config;
  }

  Providers providers() {
    return providers;
  }

  Clock clock() {
    return clock;
  }

  Map<String, String> variables() {
    return variables;
  }

  /** The run's Salesforce session; opened (without I/O) on first use. */
  synchronized SalesforceProbe salesforce() {
    if (salesforce == null) {
      salesforce = new SalesforceProbe(config.salesforce(), clock);
    }
    return salesforce;
  }

  @Override
  public synchronized void close() throws IOException {
    if (salesforce != null) {
      salesforce.close();
    }
  }
}
