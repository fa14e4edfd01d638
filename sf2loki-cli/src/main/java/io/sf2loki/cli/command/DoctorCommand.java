package io.sf2loki.cli.command;

import io.sf2loki.cli.doctor.CheckReport;
import io.sf2loki.cli.doctor.DoctorChecks;
import io.sf2loki.cli.doctor.DoctorContext;
import io.sf2loki.cli.doctor.DoctorReport;
import io.sf2loki.cli.doctor.DoctorRun;
import io.sf2loki.cli.doctor.ReportPrinter;
import io.sf2loki.config.ConfigInvalidException;
import io.sf2loki.config.Durations;
import io.sf2loki.config.Sf2LokiConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code doctor [--json] [--timeout D]}: will this deployment work? */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description = {
      "Check the config offline, then Salesforce auth and permissions, clock skew, the org's"
          + " API limits, Loki, the store, the lease and Kubernetes RBAC. Each check prints PASS, WARN, FAIL or SKIP"
          + " with a one-line remedy. Exit 0 without a FAIL, 1 with one, 2 when the config does"
          + " not load.",
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
    Sf2LokiConfig config;
    try {
      config = global.bindConfig();
    } catch (ConfigInvalidException e) {
      report = new DoctorReport(List.of(DoctorChecks.configInvalid(e)), false);
      print(report);
      return report.exitCode();
    }
    CheckReport loaded = DoctorChecks.configLoaded(config);
    try (DoctorContext context =
        new DoctorContext(
            config, global.environment().providers(), clock, global.environment().environment())) {
      report =
          new DoctorReport(
              new DoctorRun(perCheck).run(DoctorChecks.of(config), context, List.of(loaded)), true);
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
