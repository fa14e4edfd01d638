package io.sf2loki.daemon;

import io.sf2loki.model.Batch;
import io.sf2loki.model.LogEntry;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.SinkEnvironment;
import io.sf2loki.spi.SinkProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A third-party sink as a library user would write one (docs/embedding.md): found by {@code
 * sink.type = memory} through {@code META-INF/services/io.sf2loki.spi.SinkProvider}.
 */
public final class MemorySinkProvider implements SinkProvider {

  /** What every memory sink of this JVM received, in push order. */
  static final List<LogEntry> RECEIVED = new CopyOnWriteArrayList<>();

  @Override
  public String type() {
    return "memory";
  }

  @Override
  public Factory configure(ConfigSection section) {
    return new Factory() {
      @Override
      public Map<String, String> labels() {
        return Map.of("environment", "memory");
      }

      @Override
      public Sink create(SinkEnvironment environment) {
        return (Batch batch) -> RECEIVED.addAll(batch.deliverable());
      }
    };
  }
}
