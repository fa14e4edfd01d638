package io.sf2loki.state.internal;

import io.sf2loki.config.Durations;
import io.sf2loki.model.CheckpointToken;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The value of {@value CheckpointToken#RESERVED_WRITER_KEY}: which single-instance ({@code noop})
 * daemon holds an S3 or GCS document, and when it last said it was alive, as {@code
 * <token>;heartbeat=<instant>;holder=<name>}. A value without the two fields is an older sf2loki's
 * bare token: still a writer, with no heartbeat to judge by.
 *
 * @param raw the stored value, compared as a whole: a live writer changes it with every write
 * @param token the writing process's random token
 * @param heartbeat the writer's wall-clock time at its last write; empty for an older sf2loki's
 * @param holder the writer's host or pod name; empty for an older sf2loki's
 */
record WriterStamp(String raw, String token, Optional<Instant> heartbeat, String holder) {

  static final String KEY = CheckpointToken.RESERVED_WRITER_KEY;
  private static final String HEARTBEAT = "heartbeat=";
  private static final String HOLDER = "holder=";

  WriterStamp {
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(heartbeat, "heartbeat");
    Objects.requireNonNull(holder, "holder");
  }

  /** A new stamp of {@code token} at {@code now} (to the millisecond). */
  static WriterStamp of(String token, Instant now, String holder) {
    Instant at = now.truncatedTo(ChronoUnit.MILLIS);
    return new WriterStamp(
        token + ";" + HEARTBEAT + at + ";" + HOLDER + holder, token, Optional.of(at), holder);
  }

  /** The stamp in {@code doc}, if it has one. */
  static Optional<WriterStamp> in(Map<String, String> doc) {
    return Optional.ofNullable(doc.get(KEY)).map(WriterStamp::parse);
  }

  /** Parses a stored value; anything not in the current form is a bare token. */
  static WriterStamp parse(String raw) {
    String[] parts = raw.split(";", 3);
    if (parts.length == 3 && parts[1].startsWith(HEARTBEAT) && parts[2].startsWith(HOLDER)) {
      try {
        Instant at = Instant.parse(parts[1].substring(HEARTBEAT.length()));
        return new WriterStamp(raw, parts[0], Optional.of(at), parts[2].substring(HOLDER.length()));
      } catch (DateTimeParseException e) {
        // not ours: a bare token below
      }
    }
    return new WriterStamp(raw, raw, Optional.empty(), "");
  }

  /** How old the heartbeat is by {@code now}; empty without one. May be negative (clock skew). */
  Optional<Duration> age(Instant now) {
    return heartbeat.map(at -> Duration.between(at, now));
  }

  /** {@code writer <token> on <holder>, last heartbeat <when>}, for messages. */
  String describe(Instant now) {
    String who = "writer " + token + (holder.isEmpty() ? "" : " on " + holder);
    return who
        + age(now)
            .map(age -> ", last heartbeat " + heartbeat.get() + " (" + ago(age) + ")")
            .orElse(", no heartbeat recorded (written by an sf2loki older than the heartbeat)");
  }

  private static String ago(Duration age) {
    return age.isNegative()
        ? Durations.format(age.negated().truncatedTo(ChronoUnit.SECONDS))
            + " in the future by this host's clock"
        : Durations.format(age.truncatedTo(ChronoUnit.SECONDS)) + " ago by this host's clock";
  }
}
