package io.sf2loki.model;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one definition of Loki stream labels for sf2loki (invariant 5): which names may be stream
 * labels at all, which an operator may set, which no payload field may be promoted to, and what a
 * valid name and value are. Config validation, shaping and the sink all read it from here.
 */
public final class StreamLabels {

  /** The label the sink sets on entries routed out of their stream's time window. */
  public static final String LATE = "late";

  /**
   * The label {@code sf2loki-cli backfill} sets ({@code backfill="true"}) on every entry it ships,
   * so backfilled entries land in streams of their own, never behind the live ones.
   */
  public static final String BACKFILL = "backfill";

  /** Every name that may be a stream label (plus promoted ones a launcher allows explicitly). */
  public static final Set<String> ALLOWLIST =
      Set.of(
          "job",
          "service_name",
          "source",
          "event_type",
          "sf_org_id",
          "environment",
          "org",
          LATE,
          BACKFILL);

  /** The names an operator may set statically ({@code sink.loki.labels}). */
  public static final Set<String> OPERATOR =
      Set.of("job", "service_name", "environment", "sf_org_id", "org");

  /** Names sources, the pipeline, the sink and the deployment own: never promoted from payloads. */
  public static final Set<String> RESERVED = ALLOWLIST;

  /** Loki's {@code max_label_value_length} default: a longer value gets the entry rejected. */
  public static final int MAX_VALUE_LENGTH = 2048;

  /** The pattern of a valid name, for messages. */
  public static final String NAME_PATTERN = "[A-Za-z_][A-Za-z0-9_]*";

  private static final Pattern NAME = Pattern.compile(NAME_PATTERN);

  private StreamLabels() {}

  /** Whether {@code name} is a valid Loki label name. */
  public static boolean isValidName(String name) {
    return NAME.matcher(name).matches();
  }
}
