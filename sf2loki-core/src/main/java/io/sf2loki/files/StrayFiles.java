package io.sf2loki.files;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Startup clean-up of what a crashed process left behind (temp files of the state file and the
 * lease, spooled downloads): removed, logged and counted as {@code
 * sf2loki_stray_files_removed{kind}}; a clean-up that fails is logged and counted as {@code
 * sf2loki_stray_file_cleanup_failures{kind}} and never stops the caller.
 */
public final class StrayFiles {

  private static final Logger LOG = LoggerFactory.getLogger(StrayFiles.class);

  private final MeterRegistry registry;
  private final String kind;

  /**
   * @param registry where the counts go
   * @param kind the {@code kind} attribute: {@code state}, {@code lease} or {@code spool}
   */
  public StrayFiles(MeterRegistry registry, String kind) {
    this.registry = registry;
    this.kind = kind;
  }

  /**
   * Removes the temp files of {@code target} older than {@code olderThan}; see {@link
   * DurableFiles#removeStrays}.
   */
  public int removeTempFilesOf(Path target, Instant olderThan) {
    return remove(target.toString(), () -> DurableFiles.removeStrays(target, olderThan));
  }

  /** Removes the files of {@code dir} matching {@code glob} older than {@code olderThan}. */
  public int removeMatching(Path dir, String glob, Instant olderThan) {
    return remove(dir.toString(), () -> DurableFiles.removeMatching(dir, glob, olderThan));
  }

  private interface Removal {
    List<Path> run() throws IOException;
  }

  private int remove(String where, Removal removal) {
    List<Path> removed;
    try {
      removed = removal.run();
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not clean stray {} files at {}: {}", kind, where, e.toString());
      Counter.builder("sf2loki_stray_file_cleanup_failures")
          .description("startup clean-ups of files left by a crash that failed")
          .tag("kind", kind)
          .register(registry)
          .increment();
      return 0;
    }
    if (!removed.isEmpty()) {
      LOG.info(
          "removed {} stray {} file(s) left by a crashed writer at {}: {}",
          removed.size(),
          kind,
          where,
          removed);
      Counter.builder("sf2loki_stray_files_removed")
          .description("temp and spool files left by a crashed process, removed at startup")
          .tag("kind", kind)
          .register(registry)
          .increment(removed.size());
    }
    return removed.size();
  }
}
