package io.sf2loki.shape;

import io.sf2loki.spi.CategoryOwnership;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CategoryOwnership} {@link OverlapGuard} decides at startup, shared by the sources of
 * one run. A discovered category is skipped (INFO, once) when another enabled source lists it
 * explicitly, or when a source earlier in {@link #PRECEDENCE} (streaming first) has discovered it
 * too; unless {@code sources.allow_overlap}. Thread-safe.
 */
final class OverlapOwnership implements CategoryOwnership {

  private static final Logger LOG = LoggerFactory.getLogger(OverlapOwnership.class);

  /** Wildcard precedence: the first source type that discovers a category owns it. */
  static final List<String> PRECEDENCE = List.of("pubsub", "eventlog_objects", "eventlogfile");

  private final boolean allowOverlap;
  private final Map<String, Set<String>> explicitByType;
  private final Map<String, Set<String>> discoveredBy = new ConcurrentHashMap<>();
  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  OverlapOwnership(boolean allowOverlap, Map<String, Set<String>> explicitByType) {
    this.allowOverlap = allowOverlap;
    this.explicitByType = Map.copyOf(explicitByType);
  }

  @Override
  public boolean mayIngestDiscovered(String sourceType, String category) {
    Objects.requireNonNull(sourceType, "sourceType");
    discoveredBy.computeIfAbsent(category, c -> ConcurrentHashMap.newKeySet()).add(sourceType);
    if (allowOverlap) {
      return true;
    }
    Optional<String> owner =
        explicitOwner(sourceType, category).or(() -> higherDiscoverer(sourceType, category));
    if (owner.isEmpty()) {
      return true;
    }
    if (logged.add(sourceType + "/" + category)) {
      LOG.info(
          "skipping discovered category '{}' on source {}: source {} ingests it",
          category,
          sourceType,
          owner.get());
    }
    return false;
  }

  private Optional<String> explicitOwner(String sourceType, String category) {
    return explicitByType.entrySet().stream()
        .filter(e -> !e.getKey().equals(sourceType) && e.getValue().contains(category))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  private Optional<String> higherDiscoverer(String sourceType, String category) {
    int mine = rank(sourceType);
    return discoveredBy.getOrDefault(category, Set.of()).stream()
        .filter(other -> rank(other) < mine)
        .findFirst();
  }

  private static int rank(String type) {
    int i = PRECEDENCE.indexOf(type);
    return i < 0 ? PRECEDENCE.size() : i;
  }
}
