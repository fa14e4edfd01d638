package io.sf2loki.spi;

import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * Creates the {@link Sink} selected by {@code sink.type} (default {@code loki}); its section is
 * {@code sink.<type>}. Register in {@code META-INF/services/io.sf2loki.spi.SinkProvider}. The
 * composition root names no sink class: a library user plugs in a sink of their own this way.
 */
public interface SinkProvider extends ComponentProvider<SinkProvider.Factory> {

  /** A validated sink configuration, ready to create the sink. */
  interface Factory {

    /**
     * Stream labels the operator configured for every entry ({@code sink.loki.labels}); the
     * pipeline stamps them with the deployment's own labels. Empty by default.
     */
    default Map<String, String> labels() {
      return Map.of();
    }

    /**
     * Stream label names the sink itself adds to some entries (the Loki sink's {@code late} for
     * entries routed out of their stream's time window), counted against Loki's label limit by the
     * configuration check. Empty by default.
     */
    default Set<String> addedLabels() {
      return Set.of();
    }

    /**
     * Where the sink sends, for the startup log line: a URL without credentials, a topic. Empty by
     * default.
     */
    default String target() {
      return "";
    }

    /**
     * Creates the sink once per process; it is shared by both lanes and every leadership term, and
     * closed (when it is {@link AutoCloseable}) with the engine.
     *
     * @throws IOException when local material it needs (a CA file, say) cannot be read
     */
    Sink create(SinkEnvironment environment) throws IOException;
  }
}
