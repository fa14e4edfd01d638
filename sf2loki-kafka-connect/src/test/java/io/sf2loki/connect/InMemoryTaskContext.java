package io.sf2loki.connect;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * The offsets Connect would have committed, in memory: what the task tests commit by hand ({@link
 * #commit}) after "the producer acked" the records. The cluster tests use the real thing.
 */
final class InMemoryTaskContext implements SourceTaskContext, OffsetStorageReader {

  private final Map<Map<String, ?>, Map<String, Object>> committed = new ConcurrentHashMap<>();

  /** Commits the offsets of {@code records}, the last one per partition winning, as Connect. */
  void commit(List<SourceRecord> records) {
    for (SourceRecord r : records) {
      if (r.sourcePartition() != null) {
        committed.put(Map.copyOf(r.sourcePartition()), new HashMap<>(r.sourceOffset()));
      }
    }
  }

  @Override
  public Map<String, String> configs() {
    return Map.of();
  }

  @Override
  public OffsetStorageReader offsetStorageReader() {
    return this;
  }

  @Override
  public PluginMetrics pluginMetrics() {
    return null;
  }

  @Override
  public <T> Map<String, Object> offset(Map<String, T> partition) {
    return committed.get(Map.copyOf(partition));
  }

  @Override
  public <T> Map<Map<String, T>, Map<String, Object>> offsets(
      Collection<Map<String, T>> partitions) {
    Map<Map<String, T>, Map<String, Object>> out = new HashMap<>();
    for (Map<String, T> p : partitions) {
      out.put(p, offset(p));
    }
    return out;
  }
}
