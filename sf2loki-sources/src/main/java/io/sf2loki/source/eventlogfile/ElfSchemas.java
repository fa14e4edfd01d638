package io.sf2loki.source.eventlogfile;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches each event type's columns for changes between its files (Salesforce adds, removes,
 * renames and retypes columns between releases). The baseline is the last file of the type this run
 * read; for the first file after a start, the schema hash its checkpoint recorded (a type whose
 * checkpoint holds none, e.g. one written before sf2loki recorded schemas, takes its first file as
 * the baseline). A change is counted in {@code sf2loki_eventlogfile_schema_changes{event_type}} and
 * logged once at WARN with the difference; ingestion goes on unchanged, the CSV header of each file
 * drives its parsing. Types are watched one at a time (a type's files are sequential).
 */
final class ElfSchemas {

  private static final Logger LOG = LoggerFactory.getLogger(ElfSchemas.class);

  private final Map<String, ElfSchema> last = new ConcurrentHashMap<>();
  private final ElfMetrics metrics;

  ElfSchemas(ElfMetrics metrics) {
    this.metrics = metrics;
  }

  /**
   * Records that {@code type}'s file with {@code schema} was read, {@code recorded} being the hash
   * the type's checkpoint held before it.
   */
  void read(String type, ElfSchema schema, Optional<String> recorded) {
    ElfSchema before = last.put(type, schema);
    if (before != null) {
      List<String> differences = schema.differencesFrom(before);
      if (!differences.isEmpty()) {
        metrics.schemaChange(type);
        LOG.warn("EventLogFile {}: columns changed: {}", type, String.join(", ", differences));
      }
    } else if (recorded.isPresent() && !recorded.get().equals(schema.hash())) {
      metrics.schemaChange(type);
      LOG.warn(
          "EventLogFile {}: columns changed since the schema its checkpoint recorded (hash {}, now"
              + " {}; the columns before the restart are not known): now {}",
          type,
          recorded.get(),
          schema.hash(),
          schema.describe());
    }
  }
}
