package io.sf2loki.cli.backfill;

import io.sf2loki.config.Durations;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.source.eventlogobjects.EventLogObjectsConfig;
import io.sf2loki.source.eventlogobjects.ObjectRetention;
import io.sf2loki.source.eventlogobjects.ObjectSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The warnings of an {@code eventlog_objects} backfill: a {@code --since} beyond the retention
 * Salesforce documents for some of the objects, and an {@code --until} still inside an object's
 * settle window, which keeps the run polling until it has settled.
 */
final class ObjectWarnings {

  private ObjectWarnings() {}

  static List<String> of(Sf2LokiConfig config, BackfillRequest request, Instant now) {
    List<ObjectSpec> objects =
        EventLogObjectsConfig.bind(config.loaded().reader().section("sources.eventlog_objects"))
            .objects();
    List<String> out = new ArrayList<>();
    List<String> expired =
        objects.stream()
            .map(ObjectSpec::name)
            .filter(
                o ->
                    ObjectRetention.of(o)
                        .filter(r -> request.since().isBefore(now.minus(r)))
                        .isPresent())
            .toList();
    if (!expired.isEmpty()) {
      out.add(
          "--since "
              + request.since()
              + " is more than "
              + ObjectRetention.SIX_MONTHS.toDays()
              + " days ago: Salesforce keeps "
              + String.join(", ", expired)
              + " for about six months, so the older part of the window has nothing left to read");
    }
    Duration settle =
        objects.stream()
            .map(ObjectSpec::settleWindow)
            .max(Duration::compareTo)
            .orElse(Duration.ZERO);
    if (request.until().isAfter(now.minus(settle))) {
      out.add(
          "--until "
              + request.until()
              + " is inside the objects' settle_window ("
              + Durations.format(settle)
              + "): the run reads rows only once they are that old, so it polls until "
              + request.until().plus(settle)
              + " before it ends; give an older --until for a run that ends at once");
    }
    return out;
  }
}
