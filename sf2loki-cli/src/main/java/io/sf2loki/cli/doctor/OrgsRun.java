package io.sf2loki.cli.doctor;

import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.registry.Providers;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code doctor} over a configuration of orgs: the {@code config} row, then each org's own checks
 * ({@link DoctorChecks#ofOrg}) with a context, Salesforce session and prerequisites of its own, so
 * one org failing auth skips only that org's dependent checks; then the checks the orgs share
 * ({@link DoctorChecks#shared}) once.
 */
public final class OrgsRun {

  private final DoctorRun run;
  private final Providers providers;
  private final Clock clock;
  private final Map<String, String> variables;

  /**
   * @param variables the process environment (Kubernetes credentials, holder ids)
   */
  public OrgsRun(DoctorRun run, Providers providers, Clock clock, Map<String, String> variables) {
    this.run = Objects.requireNonNull(run, "run");
    this.providers = Objects.requireNonNull(providers, "providers");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.variables = Map.copyOf(variables);
  }

  /**
   * Checks {@code orgs} (all of {@code shards}, or the one {@code --org} names) and what they
   * share.
   *
   * @param loaded the configuration as loaded, whose shared sections the orgs inherit
   */
  public List<CheckReport> run(LoadedConfig loaded, Shards shards, List<Shard> orgs)
      throws InterruptedException, IOException {
    List<CheckReport> out = new ArrayList<>();
    out.add(DoctorChecks.configLoaded(shards));
    for (Shard shard : orgs) {
      String org = shard.org().orElseThrow().name();
      try (DoctorContext context = context(shard)) {
        for (CheckReport report :
            run.run(DoctorChecks.ofOrg(shard.config(), loaded), context, List.of())) {
          out.add(report.of(org));
        }
      }
    }
    try (DoctorContext context = context(shards.first())) {
      out.addAll(run.run(DoctorChecks.shared(loaded, shards), context, List.of()));
    }
    return out;
  }

  private DoctorContext context(Shard shard) {
    return new DoctorContext(shard.config(), providers, clock, variables);
  }
}
