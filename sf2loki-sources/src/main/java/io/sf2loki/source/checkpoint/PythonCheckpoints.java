package io.sf2loki.source.checkpoint;

import io.sf2loki.engine.shard.CheckpointCarrier;
import io.sf2loki.pipeline.egress.DailyUsage;
import io.sf2loki.source.elo.EloCheckpoint;
import io.sf2loki.source.eventlogfile.ElfCheckpoint;
import io.sf2loki.source.eventlogobjects.ObjectCursor;
import io.sf2loki.source.pubsub.replay.ReplayIds;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * Carries the Python sf2loki's checkpoint values, judged by the decoders the sources themselves
 * use. The formats are the same (salesforce-api.md §12): Pub/Sub replay ids, EventLogFile cursors
 * (pairs, legacy bare ids, bare timestamps), object and ApexLog cursors (bare timestamps included)
 * and {@code egress:budget} are carried as they are. One differs: an Event Log Object ({@code
 * eventlog_objects:*EventLog}) is read by sf2loki from {@code {"from": ..., "v": 1}}, the first
 * millisecond not yet read, while the Python sf2loki polled it like any object, with an {@code
 * {"ids", "last_ts"}} cursor; that cursor becomes {@code from = last_ts}, so the rows of that one
 * millisecond are read again (never a gap) and the ones the Python sf2loki already shipped there
 * are shipped twice.
 */
public final class PythonCheckpoints implements CheckpointCarrier {

  @Override
  public Carried carry(String key, String value) {
    try {
      if (key.startsWith("pubsub:")) {
        return ReplayIds.decode(value).isPresent()
            ? same(value)
            : new Carried.Invalid("not a replay id (strict standard base64 with padding)");
      }
      if (key.startsWith("eventlogfile:")) {
        ElfCheckpoint.parse(value);
        return same(value);
      }
      if (key.startsWith("eventlog_objects:") && key.endsWith("EventLog")) {
        return eventLogObject(value);
      }
      if (key.startsWith("eventlog_objects:") || key.equals("apexlog")) {
        ObjectCursor.decode(value);
        return same(value);
      }
      if (key.equals(DailyUsage.KEY)) {
        DailyUsage.parse(value);
        return same(value);
      }
    } catch (IllegalArgumentException e) {
      return new Carried.Invalid(e.getMessage());
    }
    return new Carried.UnknownNamespace();
  }

  private static Carried eventLogObject(String value) {
    try {
      EloCheckpoint.decode(value);
      return same(value);
    } catch (IllegalArgumentException notOurs) {
      Instant from = ObjectCursor.decode(value).watermark().truncatedTo(ChronoUnit.MILLIS);
      return new Carried.As(
          new EloCheckpoint(from).encode(),
          Optional.of(
              "converted from the Python {ids, last_ts} cursor to sf2loki's Event Log Object"
                  + " token: the rows at "
                  + from
                  + " are read again"));
    }
  }

  private static Carried same(String value) {
    return new Carried.As(value, Optional.empty());
  }
}
