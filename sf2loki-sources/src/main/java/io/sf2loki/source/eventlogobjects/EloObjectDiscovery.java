package io.sf2loki.source.eventlogobjects;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.shape.Categories;
import io.sf2loki.shape.Glob;
import io.sf2loki.source.elo.EloDiscovery;
import io.sf2loki.spi.CategoryOwnership;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@value EventLogObjectsConfig#DISCOVER_PRESET} preset at run time: the Event Log Objects the
 * org lists ({@link EloDiscovery}), less those {@code objects} lists, those {@code
 * event_log_objects_exclude} matches and those whose category another source owns ({@link
 * CategoryOwnership}), each with the section's settings. An org without the feature, or a user
 * without the permission, is one ERROR naming what is missing; the source asks again quietly every
 * {@code poll_interval}, so granting it needs no restart. Confined to the source thread.
 */
final class EloObjectDiscovery {

  private static final Logger LOG = LoggerFactory.getLogger(EloObjectDiscovery.class);

  private final EventLogObjectsConfig.Discovery config;
  private final SalesforceRestClient rest;
  private final CategoryOwnership ownership;
  private boolean reported;
  private boolean orgListed;

  EloObjectDiscovery(
      EventLogObjectsConfig.Discovery config,
      SalesforceRestClient rest,
      CategoryOwnership ownership) {
    this.config = config;
    this.rest = rest;
    this.ownership = ownership;
  }

  /**
   * The objects to add besides {@code listed}, each with its fields; empty when Event Log Objects
   * cannot be read here (reported once).
   *
   * @throws SalesforceApiException when a call failed: the caller retries at its next interval
   */
  List<Found> discover(Set<String> listed)
      throws SalesforceApiException, AuthException, InterruptedException {
    EloDiscovery.Result result =
        new EloDiscovery(
                suffix -> rest.getJson(rest.dataPath(suffix)),
                List.of(Glob.of("*")),
                excluding(listed))
            .discover();
    if (result instanceof EloDiscovery.Unavailable u) {
      if (!reported) {
        reported = true;
        LOG.error(
            "{}: preset {}: {}; asking again quietly every {}",
            EventLogObjectsSource.SOURCE,
            EventLogObjectsConfig.DISCOVER_PRESET,
            u.message(),
            io.sf2loki.config.Durations.format(config.pollInterval()));
      }
      return List.of();
    }
    orgListed = true;
    List<Found> out = new ArrayList<>();
    for (EloDiscovery.EloObject o : ((EloDiscovery.Found) result).objects()) {
      if (ownership.mayIngestDiscovered(
          EventLogObjectsSource.SOURCE, Categories.ofIdentifier(o.name()))) {
        out.add(new Found(config.spec(o.name()), o.fields()));
      }
    }
    LOG.info(
        "{}: preset {}: reading {} Event Log Object(s): {}",
        EventLogObjectsSource.SOURCE,
        EventLogObjectsConfig.DISCOVER_PRESET,
        out.size(),
        out.stream().map(f -> f.spec().name()).toList());
    return out;
  }

  /** True once the org listed its Event Log Objects (none may be left to read). */
  boolean listed() {
    return orgListed;
  }

  /** How long the source waits before asking again after a failure or an unavailable answer. */
  java.time.Duration retryInterval() {
    return config.pollInterval();
  }

  private List<Glob> excluding(Set<String> listed) {
    List<Glob> out = new ArrayList<>(config.exclude());
    listed.forEach(name -> out.add(Glob.of(name)));
    return out;
  }

  /**
   * One discovered object.
   *
   * @param spec its settings
   * @param fields its fields from {@code describe}
   */
  record Found(ObjectSpec spec, List<String> fields) {
    Found {
      fields = List.copyOf(fields);
    }
  }
}
