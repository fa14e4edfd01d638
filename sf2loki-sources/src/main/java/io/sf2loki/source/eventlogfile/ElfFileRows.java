package io.sf2loki.source.eventlogfile;

import io.sf2loki.model.CheckpointToken;
import io.sf2loki.shape.Shaped;
import io.sf2loki.shape.TypeShaping;
import io.sf2loki.spi.SourceContext;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Emits one downloaded file's rows with the checkpoint carrying of salesforce-api.md §7.4: every
 * entry carries the pre-file checkpoint except the file's last kept entry, which carries the
 * advanced one. To know which entry is the last, one shaped row is held back until the next kept
 * row (or the end of the body) is seen. A stop before the end emits nothing further and carries no
 * advance, so the whole file is read again.
 */
final class ElfFileRows {

  /**
   * What emitting one file did.
   *
   * @param rows data rows read from the body
   * @param entries entries emitted (rows kept by shaping)
   * @param complete false when a stop arrived before the end of the body
   */
  record Emitted(long rows, long entries, boolean complete) {}

  private final ElfEntries entries;
  private final ElfMetrics metrics;

  ElfFileRows(ElfEntries entries, ElfMetrics metrics) {
    this.entries = entries;
    this.metrics = metrics;
  }

  /**
   * Parses {@code body} and emits its kept rows: all but the last carry {@code before}, the last
   * carries {@code after}.
   */
  Emitted emit(
      String type,
      ElfFile f,
      TypeShaping shaping,
      Spool body,
      SourceContext ctx,
      ElfCheckpoint before,
      ElfCheckpoint after)
      throws IOException, InterruptedException {
    Optional<CheckpointToken> pre = Optional.of(token(type, before));
    long rows = 0;
    long emitted = 0;
    boolean complete = false;
    Shaped.Kept held = null;
    try (InputStream in = body.open();
        CsvRows csv = new CsvRows(in)) {
      while (csv.hasNext()) {
        if (ctx.stopRequested()) {
          return new Emitted(rows, emitted, false); // the held row is replayed with the file
        }
        rows++;
        Optional<Shaped.Kept> kept = entries.row(shaping, csv.next(), f);
        if (kept.isPresent()) {
          if (held != null) {
            ctx.emit(held.entry(pre).withCheckpointBeforeItsUnit());
            emitted++;
          }
          held = kept.get();
        }
      }
      if (held != null) {
        ctx.emit(held.entry(Optional.of(token(type, after))));
        emitted++;
      }
      complete = true;
      return new Emitted(rows, emitted, true);
    } finally {
      if (!complete && emitted > 0) {
        ctx.abandonUnit(); // a bad body, an error or a stop: the file is read again whole
      }
      metrics.rowsIngested(type, emitted);
    }
  }

  static CheckpointToken token(String type, ElfCheckpoint cursor) {
    return new CheckpointToken(ElfCursors.key(type), cursor.format());
  }
}
