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
import java.util.Map;
import java.util.TreeMap;

/**
 * The warnings of an {@code eventlog_objects} backfill: a {@code --since} beyond the retention
 * Salesforce documents for some of the objects (about six months, 30 days for Event Log Objects),
 * and an {@code --until} still inside an object's settle window, which keeps the run polling until
 * it has settled.
 */
final class ObjectWarnings {

  private ObjectWarnings() {}

  static List<String> of(Sf2LokiConfig config, BackfillRequest request, Instant now) {
    List<ObjectSpec> objects =
        EventLogObjectsConfig.bind(config.loaded().reader().section("sources.eventlog_objects"))
            .objects();
    List<String> out = new ArrayList<>();
    Map<Duration, List<String>> expired = new TreeMap<>();
    for (ObjectSpec o : objects) {
      ObjectRetention.of(o.name())
          .filter(r -> request.since().isBefore(now.minus(r)))
          .ifPresent(r -> expired.computeIfAbsent(r, k -> new ArrayList<>()).add(o.name()));
    }
    expired.forEach(
        (retention, names) ->
            out.add(
                "--since "
                    + request.since()
                    + " is more than "
                    + retention.toDays()
                    + " days ago: Salesforce keeps "
                    + String.join(", ", names)
                    + (retention.equals(ObjectRetention.SIX_MONTHS)
                        ? " for about six months"
                        : " for " + retention.toDays() + " days")
                    + ", so the older part of the window has nothing left to read"));
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
