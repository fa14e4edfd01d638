package io.sf2loki.testkit.salesforce;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The fake org's schema changes: from a CreatedDate on, the files of one event type have other
 * columns, as after a Salesforce release. A file's schema is that of the latest change of its type
 * at or before its CreatedDate, else {@link LogFileSchema#STANDARD}. Thread-safe.
 */
final class LogFileSchemas {

  private record Change(String eventType, Instant from, LogFileSchema schema) {}

  private final List<Change> changes = new CopyOnWriteArrayList<>();

  void change(String eventType, Instant from, LogFileSchema schema) {
    changes.add(new Change(eventType, from, schema));
  }

  LogFileSchema of(LogFileSpec f) {
    Change latest = null;
    for (Change c : changes) {
      if (c.eventType().equals(f.eventType())
          && !c.from().isAfter(f.createdDate())
          && (latest == null || !c.from().isBefore(latest.from()))) {
        latest = c;
      }
    }
    return latest == null ? LogFileSchema.STANDARD : latest.schema();
  }
}
