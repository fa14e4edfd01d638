package io.sf2loki.engine.shard;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

/**
 * An org's view of the process's meter registry: every meter registered through it lands in the
 * process registry with the tag {@code org=<name>}, so {@code sf2loki_leader{org="prod"}} and its
 * siblings are per org while one {@code /metrics} serves them all.
 */
public final class OrgMeters {

  private OrgMeters() {}

  /** A registry whose meters are {@code process}'s, tagged {@code org = name}. */
  public static MeterRegistry of(MeterRegistry process, String name) {
    CompositeMeterRegistry view = new CompositeMeterRegistry(process.config().clock());
    view.config().commonTags("org", name);
    view.add(process);
    return view;
  }
}
