package io.sf2loki.cli.command;

import io.sf2loki.cli.doctor.DoctorChecks;
import io.sf2loki.cli.doctor.DoctorContext;
import io.sf2loki.cli.doctor.DoctorReport;
import io.sf2loki.cli.doctor.DoctorRun;
import io.sf2loki.cli.doctor.OrgsRun;
import io.sf2loki.cli.doctor.ReportPrinter;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.Durations;
import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code doctor [--json] [--timeout D] [--org NAME]}: will this deployment work? */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description = {
      "Check the config offline, then Salesforce auth and permissions, clock skew, the org's"
          + " API limits, Loki, the store, the lease and Kubernetes RBAC. Each check prints PASS, WARN, FAIL or SKIP"
          + " with a one-line remedy. With orgs, each org's checks run for every org (or the"
          + " --org named), each row naming its org, and Loki and RBAC once. Exit 0 without a"
          + " FAIL, 1 with one, 2 when the config does not load.",
    })
public final class DoctorCommand implements java.util.concurrent.Callable<Integer> {

  @Mixin GlobalOptions global;

  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print one JSON object instead of the table.")
  boolean json;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "30s",
      description = "How long each check may take (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Option(
      names = "--org",
      paramLabel = "NAME",
      description = "With orgs: check this org only (and what the orgs share).")
  String org;

  private final Clock clock = Clock.systemUTC();

  @Override
  public Integer call() throws Exception {
    Duration perCheck;
    try {
      perCheck = Durations.parse(timeout);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--timeout: " + e.getMessage());
    }
    if (perCheck.isZero() || perCheck.isNegative()) {
      throw new ParameterException(spec.commandLine(), "--timeout must be positive");
    }
    DoctorReport report;
    LoadedConfig loaded;
    Shards shards;
    try {
      loaded = global.loadConfig();
      shards = Shards.bind(loaded, global.environment().providers());
    } catch (ConfigInvalidException e) {
      report = new DoctorReport(List.of(DoctorChecks.configInvalid(e)), false);
      print(report);
      return report.exitCode();
    }
    // an unknown --org, or one on a single-org file, is a usage error as for 'state --org'
    List<Shard> orgs = org == null ? shards.all() : List.of(shards.select(Optional.of(org)));
    DoctorRun run = new DoctorRun(perCheck);
    if (shards.multiOrg()) {
      report =
          new DoctorReport(
              new OrgsRun(
                      run,
                      global.environment().providers(),
                      clock,
                      global.environment().environment())
                  .run(loaded, shards, orgs),
              true);
    } else {
      Sf2LokiConfig config = shards.first().config();
      try (DoctorContext context =
          new DoctorContext(
              config,
              global.environment().providers(),
              clock,
              global.environment().environment())) {
        report =
            new DoctorReport(
                run.run(
                    DoctorChecks.of(config), context, List.of(DoctorChecks.configLoaded(config))),
                true);
      }
    }
    print(report);
    return report.exitCode();
  }

  private void print(DoctorReport report) {
    ReportPrinter printer = new ReportPrinter(global.environment().out());
    if (json) {
      printer.json(report);
    } else {
      printer.table(report);
    }
  }
}
