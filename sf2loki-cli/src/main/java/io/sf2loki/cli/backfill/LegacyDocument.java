package io.sf2loki.cli.backfill;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.LoadedConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.registry.Providers;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreException;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The single backfill document of earlier versions ({@code state-backfill.json}), which every
 * window shared: a cursor in it may be any window's progress, so it is never read as this window's
 * (an earlier window read after a later one found nothing). A backfill that finds progress of its
 * source in it says so, naming it, so that the operator knows it is ignored and can delete it;
 * nothing is migrated from it.
 */
final class LegacyDocument {

  private LegacyDocument() {}

  /**
   * The warning to print when the legacy document holds progress of the request's source, read
   * without its lock.
   *
   * @param loaded the daemon's configuration
   * @param current where this window's progress lives
   */
  static Optional<String> warning(
      LoadedConfig loaded,
      BackfillRequest request,
      Providers providers,
      Clock clock,
      String current) {
    Sf2LokiConfig legacy =
        Sf2LokiConfig.bind(
            BackfillOverrides.apply(loaded, request, BackfillOverrides.SUFFIX), providers);
    Map<String, String> committed;
    try (CheckpointStore store =
        legacy.store().create(new StoreEnvironment(false, clock, new SimpleMeterRegistry()))) {
      committed = store.loadAll();
    } catch (StoreException e) {
      return Optional.of(
          legacy.store().location()
              + ", the backfill document of an earlier sf2loki version, could not be read ("
              + e.getMessage()
              + "); it is not used either way");
    }
    PriorProgress old = PriorProgress.of(legacy.store().location(), committed, request);
    if (!old.any()) {
      return Optional.empty();
    }
    return Optional.of(
        old.document()
            + " holds "
            + request.source()
            + " progress ("
            + old.typeList()
            + ") written by an earlier sf2loki version, which kept one backfill document for"
            + " every window: it is not read, since it cannot tell which window that progress"
            + " belongs to, so a backfill interrupted under the earlier version starts its window"
            + " afresh; this window's progress is in "
            + current
            + ". Delete "
            + old.document()
            + " to silence this warning");
  }
}
