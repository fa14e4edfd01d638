package io.sf2loki.cli.doctor;

import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.shape.Glob;
import io.sf2loki.source.elo.EloDiscovery;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code permissions:event_log_objects}: whether this org and user can read Event Log Objects at
 * all, asked once ({@link EloDiscovery}: {@code describeGlobal}, then {@code describe} of each
 * selected object) before the per-object probes, which need it to pass. An org without the feature
 * or a user without View Event Log Object Data is this one FAIL, not one per object; an object
 * listed in {@code objects} that the org does not list is named.
 */
final class EventLogObjectsCheck implements Check {

  static final String NAME = "permissions:event_log_objects";

  private final List<String> listed;
  private final boolean discovers;
  private final List<Glob> exclude;

  /**
   * @param listed the Event Log Objects {@code objects} and presets name
   * @param discovers whether the {@code event_log_objects} preset asks for every one
   * @param exclude the globs it leaves out
   */
  EventLogObjectsCheck(List<String> listed, boolean discovers, List<Glob> exclude) {
    this.listed = List.copyOf(listed);
    this.discovers = discovers;
    this.exclude = List.copyOf(exclude);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> requires() {
    return List.of(AuthCheck.NAME);
  }

  @Override
  public CheckResult run(DoctorContext context) throws Exception {
    SalesforceRestClient rest = context.salesforce().rest();
    List<Glob> include = new ArrayList<>();
    listed.forEach(n -> include.add(Glob.of(n)));
    if (discovers) {
      include.add(Glob.of("*"));
    }
    EloDiscovery.Result result;
    try {
      result =
          new EloDiscovery(suffix -> rest.getJson(rest.dataPath(suffix)), include, exclude)
              .discover();
    } catch (SalesforceApiException e) {
      return new CheckResult.Fail(e.getMessage(), "retry later; check Salesforce's status");
    }
    if (result instanceof EloDiscovery.Unavailable u) {
      return new CheckResult.Fail(
          u.message(),
          "grant the permission, or remove the Event Log Objects (*EventLog) and the"
              + " event_log_objects preset from sources.eventlog_objects");
    }
    List<String> found =
        ((EloDiscovery.Found) result).objects().stream().map(EloDiscovery.EloObject::name).toList();
    Optional<String> missing =
        listed.stream().filter(n -> !found.contains(n)).reduce((a, b) -> a + ", " + b);
    if (missing.isPresent()) {
      return new CheckResult.Fail(
          "this org lists no queryable " + missing.get(),
          "check the name, or remove it from sources.eventlog_objects.objects");
    }
    return new CheckResult.Pass(
        found.size() + " Event Log Object(s) readable" + (found.isEmpty() ? "" : ": " + found));
  }
}
