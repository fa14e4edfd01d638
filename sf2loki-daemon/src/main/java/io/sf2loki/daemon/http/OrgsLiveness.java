package io.sf2loki.daemon.http;

import java.util.List;

/**
 * {@code /healthz} of a multi-org process: {@code 200 ok} while every org's engine beats; {@code
 * 503 unhealthy: org <name>: engine heartbeat stale for Ns} for the first whose supervising thread
 * is stuck. An org whose engine has ended does not beat and is not stale.
 */
public final class OrgsLiveness implements Probe {

  private static final Answer OK = new Answer(200, "ok");

  private final List<OrgProbe> orgs;

  public OrgsLiveness(List<OrgProbe> orgs) {
    this.orgs = List.copyOf(orgs);
  }

  @Override
  public Answer answer() {
    for (OrgProbe org : orgs) {
      Answer answer = org.liveness().answer();
      if (answer.status() != 200) {
        return new Answer(
            answer.status(),
            answer.body().replaceFirst("^unhealthy: ", "unhealthy: org " + org.org() + ": "));
      }
    }
    return OK;
  }
}
