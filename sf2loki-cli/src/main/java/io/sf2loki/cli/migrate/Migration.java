package io.sf2loki.cli.migrate;

import java.util.List;
import java.util.Objects;

/**
 * A converted configuration.
 *
 * @param hocon the HOCON text, which {@code config check} accepts once its referenced files exist
 * @param notes the report, in the file's order: where each key went ({@link
 *     MigrationNote.Kind#CONVERTED}), and every key that was dropped, changed meaning or had a
 *     default written out
 */
public record Migration(String hocon, List<MigrationNote> notes) {

  public Migration {
    Objects.requireNonNull(hocon, "hocon");
    notes = List.copyOf(notes);
  }
}
