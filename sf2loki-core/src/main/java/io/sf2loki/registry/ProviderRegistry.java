package io.sf2loki.registry;

import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.ComponentProvider;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.SinkProvider;
import io.sf2loki.spi.SourceProvider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The providers of one role, keyed by config type name. Two providers claiming one type is a
 * packaging error reported with both class names; an unknown type is a configuration problem that
 * lists the known types.
 *
 * @param <P> the provider role
 */
public final class ProviderRegistry<P extends ComponentProvider<?>> {

  private final String role;
  private final Map<String, P> byType;
  private final List<String> duplicates;

  /**
   * @param role what the providers create, for messages ("checkpoint store")
   * @param providers the candidates, in discovery order
   */
  public ProviderRegistry(String role, Iterable<? extends P> providers) {
    this.role = role;
    Map<String, P> map = new TreeMap<>();
    List<String> dupes = new ArrayList<>();
    for (P p : providers) {
      P previous = map.putIfAbsent(p.type(), p);
      if (previous != null) {
        dupes.add(
            role
                + " type '"
                + p.type()
                + "' is provided twice: by "
                + previous.getClass().getName()
                + " and "
                + p.getClass().getName());
      }
    }
    this.byType = Collections.unmodifiableMap(map);
    this.duplicates = List.copyOf(dupes);
  }

  /** The store providers visible to {@code loader}. */
  public static ProviderRegistry<CheckpointStoreProvider> stores(ClassLoader loader) {
    return new ProviderRegistry<>(
        "checkpoint store", ServiceLoader.load(CheckpointStoreProvider.class, loader));
  }

  /** The coordinator providers visible to {@code loader}. */
  public static ProviderRegistry<CoordinatorProvider> coordinators(ClassLoader loader) {
    return new ProviderRegistry<>(
        "coordinator", ServiceLoader.load(CoordinatorProvider.class, loader));
  }

  /** The source providers visible to {@code loader}. */
  public static ProviderRegistry<SourceProvider> sources(ClassLoader loader) {
    return new ProviderRegistry<>("source", ServiceLoader.load(SourceProvider.class, loader));
  }

  /** The sink providers visible to {@code loader}. */
  public static ProviderRegistry<SinkProvider> sinks(ClassLoader loader) {
    return new ProviderRegistry<>("sink", ServiceLoader.load(SinkProvider.class, loader));
  }

  /** Known type names, sorted. */
  public List<String> types() {
    return List.copyOf(byType.keySet());
  }

  /** Every provider, by type order. */
  public List<P> all() {
    return List.copyOf(byType.values());
  }

  /**
   * The provider selected by the value at {@code key}, recording a problem on {@code reader} when
   * the type is unknown or ambiguous.
   */
  public Optional<P> select(ConfigSection reader, String key) {
    String type = reader.string(key);
    for (String d : duplicates) {
      if (d.contains("'" + type + "'")) {
        reader.problem(key, reader.path(key) + ": " + d);
        return Optional.empty();
      }
    }
    P provider = byType.get(type);
    if (provider == null) {
      reader.problem(
          key,
          reader.path(key)
              + ": unknown "
              + role
              + " type '"
              + type
              + "' (known: "
              + (byType.isEmpty() ? "none on the class path" : String.join(", ", byType.keySet()))
              + ")");
      return Optional.empty();
    }
    return Optional.of(provider);
  }
}
