package io.sf2loki.loki;

import io.sf2loki.config.Urls;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.SinkEnvironment;
import io.sf2loki.spi.SinkProvider;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

/** The {@code loki} sink: binds {@code sink.loki} and creates a {@link LokiSink}. */
public final class LokiSinkProvider implements SinkProvider {

  /** The {@code sink.type} that selects this provider. */
  public static final String TYPE = "loki";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public LokiFactory configure(ConfigSection section) {
    return new LokiFactory(LokiSinkConfig.bind(section));
  }

  /** A bound {@code sink.loki} section: creates the daemon's sink, or a replay's. */
  public static final class LokiFactory implements Factory {

    private final LokiSinkConfig config;

    LokiFactory(LokiSinkConfig config) {
      this.config = config;
    }

    @Override
    public Map<String, String> labels() {
      return config.labels();
    }

    @Override
    public Set<String> addedLabels() {
      return config.windows().latePolicy() == TimeWindowConfig.LatePolicy.ROUTE
          ? Set.of(TimeWindowConfig.LATE_LABEL)
          : Set.of();
    }

    @Override
    public String target() {
      return Urls.redact(config.pushUrl());
    }

    @Override
    public Sink create(SinkEnvironment environment) throws IOException {
      return builder(environment).build();
    }

    /**
     * The sink of {@code deadletter replay}: it pushes each entry {@linkplain ReplayJournal#track
     * tracked} by {@code journal} where an earlier replay pushed it, and records there where it
     * pushes it and what Loki stored.
     *
     * @throws IOException when the CA file cannot be loaded
     */
    public LokiSink createForReplay(SinkEnvironment environment, ReplayJournal journal)
        throws IOException {
      return builder(environment).placementLedger(journal).build();
    }

    private LokiSink.Builder builder(SinkEnvironment environment) {
      return LokiSink.builder(config, environment.metrics(), environment.clock())
          .extraLabelNames(environment.promotedLabels());
    }
  }
}
