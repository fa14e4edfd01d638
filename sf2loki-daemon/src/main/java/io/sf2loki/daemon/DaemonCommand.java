package io.sf2loki.daemon;

import io.sf2loki.config.BuildInfo;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.registry.Providers;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;

/** {@code sf2loki-daemon --config FILE [--check]}. */
@Command(
    name = "sf2loki-daemon",
    mixinStandardHelpOptions = true,
    versionProvider = DaemonCommand.Version.class,
    description = "Ship Salesforce Event Monitoring data into Grafana Loki.")
final class DaemonCommand implements Callable<Integer> {

  @Option(names = "--config", paramLabel = "FILE", description = "HOCON config file.")
  Path config;

  @Option(
      names = "--check",
      description =
          "Validate the configuration and wiring offline (no network, no locks), then exit.")
  boolean check;

  @Option(
      names = "--debug",
      description = "Print stack traces of failures; sf2loki's own loggers log at DEBUG.")
  boolean debug;

  private final PrintWriter out;
  private final Map<String, String> environment;
  private final ClassLoader classLoader;
  private final DaemonRunner runner;

  DaemonCommand(
      PrintWriter out,
      Map<String, String> environment,
      ClassLoader classLoader,
      DaemonRunner runner) {
    this.out = out;
    this.environment = environment;
    this.classLoader = classLoader;
    this.runner = runner;
  }

  @Override
  public Integer call() throws Exception {
    Shards bound =
        Shards.bind(
            new ConfigLoader(classLoader, environment).load(Optional.ofNullable(config)),
            Providers.discover(classLoader));
    if (check) {
      bound.topologyWarnings().forEach(w -> out.println("config check WARN: " + w));
      out.println("config check OK");
      return 0;
    }
    return runner.run(bound, debug);
  }

  /** {@code --version}. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"sf2loki " + BuildInfo.version()};
    }
  }
}
