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
  public Factory configure(ConfigSection section) {
    LokiSinkConfig config = LokiSinkConfig.bind(section);
    return new Factory() {
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
        return LokiSink.builder(config, environment.metrics(), environment.clock())
            .extraLabelNames(environment.promotedLabels())
            .build();
      }
    };
  }
}
