package io.sf2loki.cli.backfill;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.registry.Providers;
import io.sf2loki.salesforce.auth.AuthException;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code sf2loki-cli backfill}: re-ingests a past window into Loki beside a running daemon. The
 * daemon's configuration is turned into the backfill's ({@link BackfillOverrides}), validated like
 * the daemon's (exit 2 on a problem), checked against Salesforce's and Loki's time limits (warnings
 * only), then either estimated ({@link DryRun}) or run ({@link BackfillRun}).
 */
public final class Backfill {

  /** How long Salesforce keeps EventLogFile records. */
  static final Duration ELF_RETENTION = Duration.ofDays(30);

  private final Clock clock;
  private final Map<String, String> variables;
  private final PrintWriter out;
  private final PrintWriter err;

  /**
   * @param variables the process environment, for the components that read it
   */
  public Backfill(Clock clock, Map<String, String> variables, PrintWriter out, PrintWriter err) {
    this.clock = clock;
    this.variables = Map.copyOf(variables);
    this.out = out;
    this.err = err;
  }

  /**
   * Runs {@code request} over the daemon's configuration {@code loaded}.
   *
   * @return 0 when done
   * @throws io.sf2loki.config.ConfigInvalidException when the backfill's configuration is invalid
   * @throws BackfillFailedException when the run did not finish
   */
  public int run(LoadedConfig loaded, Providers providers, BackfillRequest request)
      throws InterruptedException {
    Sf2LokiConfig config = Sf2LokiConfig.bind(BackfillOverrides.apply(loaded, request), providers);
    warnings(config, request).forEach(w -> err.println("backfill WARN: " + w));
    LegacyDocument.warning(loaded, request, providers, clock, config.store().location())
        .ifPresent(w -> err.println("backfill WARN: " + w));
    err.flush();
    if (request.dryRun()) {
      try {
        return request.source().equals(BackfillRequest.EVENTLOG_OBJECTS)
            ? ObjectsDryRun.run(config, request, clock, out)
            : new DryRun(config, request, clock, out).run();
      } catch (AuthException e) {
        throw new BackfillFailedException(
            "backfill dry run: Salesforce authentication failed: " + e.getMessage(), e);
      } catch (IOException e) {
        throw new BackfillFailedException("backfill dry run failed: " + e.getMessage(), e);
      }
    }
    PriorProgress prior =
        PriorProgress.of(
            config.store().location(),
            DryRun.committed(config, clock, new SimpleMeterRegistry()),
            request);
    out.println(
        "backfill: "
            + request.source()
            + " from "
            + request.since()
            + " until "
            + request.until()
            + " into "
            + config.sink().target()
            + " with backfill=\"true\"; progress in "
            + prior.document()
            + (prior.any()
                ? ", resuming where an earlier run of this window stopped ("
                    + prior.typeList()
                    + ")"
                : ", from the window's start"));
    out.flush();
    return new BackfillRun(config, clock, variables, out).run(request, prior);
  }

  /** Windows Salesforce or Loki cannot honour in full, or that keep a run waiting. */
  List<String> warnings(Sf2LokiConfig config, BackfillRequest request) {
    Instant now = clock.instant();
    List<String> out = new ArrayList<>();
    if (request.source().equals(BackfillRequest.EVENTLOG_OBJECTS)) {
      out.addAll(ObjectWarnings.of(config, request, now));
    } else if (request.since().isBefore(now.minus(ELF_RETENTION))) {
      out.add(
          "--since "
              + request.since()
              + " is more than 30 days ago: Salesforce keeps EventLogFile records for 30 days,"
              + " so the older part of the window has nothing left to read");
    }
    LokiAge age = LokiAge.of(config);
    Instant cutoff = age.cutoff(now);
    if (request.since().isBefore(cutoff)) {
      out.add(
          "--since "
              + request.since()
              + " is older than Loki accepts (entries before "
              + cutoff
              + ", "
              + age.describe()
              + "): those entries will be "
              + age.fate());
    }
    return out;
  }
}
