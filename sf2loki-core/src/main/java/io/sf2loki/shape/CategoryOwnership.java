package io.sf2loki.shape;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may ingest a category found by wildcard discovery, shared by the sources of one run. Explicit
 * identifiers are never filtered. A discovered category is skipped (INFO, once) when another
 * enabled source lists it explicitly, or when a source earlier in {@link #PRECEDENCE} (streaming
 * first) has discovered it too; unless {@code sources.allow_overlap}. Thread-safe.
 */
public final class CategoryOwnership {

  private static final Logger LOG = LoggerFactory.getLogger(CategoryOwnership.class);

  /** Wildcard precedence: the first source type that discovers a category owns it. */
  public static final List<String> PRECEDENCE =
      List.of("pubsub", "eventlog_objects", "eventlogfile");

  private final boolean allowOverlap;
  private final Map<String, Set<String>> explicitByType;
  private final Map<String, Set<String>> discoveredBy = new ConcurrentHashMap<>();
  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  CategoryOwnership(boolean allowOverlap, Map<String, Set<String>> explicitByType) {
    this.allowOverlap = allowOverlap;
    this.explicitByType = Map.copyOf(explicitByType);
  }

  /** No other sources, overlap allowed: every discovered category may be ingested. */
  public static CategoryOwnership unrestricted() {
    return new CategoryOwnership(true, Map.of());
  }

  /**
   * Records that {@code sourceType} discovered {@code category} and answers whether it may ingest
   * it now. Call on every discovery pass: ownership can move to a higher-precedence source that
   * discovers the category later.
   */
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
