package io.sf2loki.shape;

import io.sf2loki.spi.CategoryOwnership;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.SourceProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One category, one source: at startup, an event category fed by explicit identifiers of two
 * enabled sources (say {@code Login} on eventlogfile and {@code LoginEvent} on eventlog_objects) is
 * a configuration error unless {@code sources.allow_overlap = true}. Runs during binding, with no
 * I/O; sources that do not offer {@link CategoryClaims} (ApexLog) never conflict.
 */
public final class OverlapGuard {

  private OverlapGuard() {}

  /**
   * Records one problem per overlapping category on {@code sourcesSection} (the {@code sources}
   * reader) and returns the ownership rules for wildcard discovery at run time.
   *
   * @param sources the bound factories of the enabled source families, by type
   */
  public static CategoryOwnership check(
      Map<String, SourceProvider.Factory> sources, ConfigSection sourcesSection) {
    boolean allow = sourcesSection.isSet("allow_overlap") && sourcesSection.bool("allow_overlap");
    Map<String, Set<String>> explicitByType = new LinkedHashMap<>();
    Map<String, Map<String, List<String>>> byCategory = new TreeMap<>();
    for (Map.Entry<String, SourceProvider.Factory> e : sources.entrySet()) {
      if (e.getValue() instanceof CategoryClaims claims) {
        Set<String> categories = new TreeSet<>();
        claims
            .explicitCategories()
            .forEach(
                (identifier, category) -> {
                  categories.add(category);
                  byCategory
                      .computeIfAbsent(category, c -> new TreeMap<>())
                      .computeIfAbsent(e.getKey(), t -> new ArrayList<>())
                      .add(identifier);
                });
        explicitByType.put(e.getKey(), categories);
      }
    }
    if (!allow) {
      byCategory.forEach((category, owners) -> report(sourcesSection, category, owners));
    }
    return new OverlapOwnership(allow, explicitByType);
  }

  private static void report(ConfigSection r, String category, Map<String, List<String>> owners) {
    if (owners.size() < 2) {
      return;
    }
    List<String> parts = new ArrayList<>();
    owners.forEach((type, ids) -> parts.add(r.path(type) + " (" + String.join(", ", ids) + ")"));
    String first = owners.keySet().iterator().next();
    r.problem(
        first,
        r.path(first)
            + ": event category '"
            + category
            + "' is ingested by more than one source: "
            + String.join(" and ", parts)
            + "; keep it on one source, or set "
            + r.path("allow_overlap")
            + " = true to ingest it twice on purpose");
  }
}
