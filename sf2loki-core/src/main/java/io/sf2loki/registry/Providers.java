package io.sf2loki.registry;

import io.sf2loki.spi.CheckpointStoreProvider;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.SinkProvider;
import io.sf2loki.spi.SourceProvider;
import java.util.Objects;

/**
 * The provider registries of every role, discovered together or assembled by hand (a library user
 * adding a store of their own, a test).
 *
 * @param stores checkpoint store providers ({@code state.store})
 * @param coordinators coordinator providers ({@code coordinate.type})
 * @param sources source providers ({@code sources.<type>})
 * @param sinks sink providers ({@code sink.type})
 */
public record Providers(
    ProviderRegistry<CheckpointStoreProvider> stores,
    ProviderRegistry<CoordinatorProvider> coordinators,
    ProviderRegistry<SourceProvider> sources,
    ProviderRegistry<SinkProvider> sinks) {

  public Providers {
    Objects.requireNonNull(stores, "stores");
    Objects.requireNonNull(coordinators, "coordinators");
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(sinks, "sinks");
  }

  /** Every provider registered with {@link java.util.ServiceLoader} visible to {@code loader}. */
  public static Providers discover(ClassLoader loader) {
    return new Providers(
        ProviderRegistry.stores(loader),
        ProviderRegistry.coordinators(loader),
        ProviderRegistry.sources(loader),
        ProviderRegistry.sinks(loader));
  }
}
