package io.sf2loki.daemon.http;

import io.sf2loki.engine.EngineOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code /readyz} of a multi-org process: a summary line, then one line per org ({@code org prod:
 * ready}, {@code org emea: auth_rejected}) with that org's own readiness answer. An org is fine
 * when it leads healthily or stands by (another replica leads it: {@code standby}, {@code fenced:
 * ...}), or its sources finished; it is a problem when it leads degraded, backs off from a failure
 * or its engine ended after a permanent failure ({@code failed: <reason>}). The summary, first that
 * applies:
 *
 * <ol>
 *   <li>{@code 503 degraded: org <name>: <its answer>} for the first org with a problem;
 *   <li>{@code 503 not ready} while an org is starting (its first login) or the process stops;
 *   <li>{@code 200 ready} when this replica leads at least one org;
 *   <li>{@code 503 standby} when it leads none.
 * </ol>
 *
 * <p>So, as with one org, a replica that leads is Ready and a pure standby is not; a replica
 * leading some orgs while another leads the rest is Ready too, and a broken org makes every replica
 * that runs it unready until it is fixed.
 */
public final class OrgsReadiness implements Probe {

  private final List<OrgProbe> orgs;

  public OrgsReadiness(List<OrgProbe> orgs) {
    this.orgs = List.copyOf(orgs);
  }

  @Override
  public Answer answer() {
    List<String> lines = new ArrayList<>();
    Optional<String> problem = Optional.empty();
    boolean starting = false;
    boolean leads = false;
    for (OrgProbe org : orgs) {
      OrgState state = state(org);
      lines.add("org " + org.org() + ": " + state.text());
      if (state.problem() && problem.isEmpty()) {
        problem = Optional.of("degraded: org " + org.org() + ": " + state.text());
      }
      starting |= state.text().equals("not ready");
      leads |= state.leading();
    }
    String summary;
    int status = 503;
    if (problem.isPresent()) {
      summary = problem.get();
    } else if (starting) {
      summary = "not ready";
    } else if (leads) {
      summary = "ready";
      status = 200;
    } else {
      summary = "standby";
    }
    return new Answer(status, summary + "\n" + String.join("\n", lines));
  }

  private static OrgState state(OrgProbe org) {
    Optional<EngineOutcome> ended = org.ended().get();
    if (ended.isPresent()) {
      if (ended.get() instanceof EngineOutcome.Failed failed) {
        return new OrgState("failed: " + failed.failure().reason(), true, false);
      }
      return ended.get() instanceof EngineOutcome.Finished
          ? new OrgState("finished", false, false)
          : new OrgState("not ready", false, false);
    }
    Answer answer = org.readiness().answer();
    String text = answer.body();
    if (answer.status() == 200) {
      return new OrgState(text, false, true);
    }
    boolean fine =
        text.equals("not ready") || text.startsWith("standby") || text.startsWith("fenced");
    return new OrgState(text, !fine, false);
  }

  private record OrgState(String text, boolean problem, boolean leading) {}
}
