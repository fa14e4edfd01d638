package io.sf2loki.otlp;

import io.sf2loki.config.Urls;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Sink;
import io.sf2loki.spi.SinkEnvironment;
import io.sf2loki.spi.SinkProvider;
import java.io.IOException;
import java.util.Map;

/** The {@code otlp} sink: binds {@code sink.otlp} and creates an {@link OtlpSink}. */
public final class OtlpSinkProvider implements SinkProvider {

  /** The {@code sink.type} that selects this provider. */
  public static final String TYPE = "otlp";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Factory configure(ConfigSection section) {
    OtlpSinkConfig config = OtlpSinkConfig.bind(section);
    return new Factory() {
      @Override
      public Map<String, String> labels() {
        return config.labels();
      }

      @Override
      public String target() {
        return Urls.redact(config.logsUrl());
      }

      @Override
      public Sink create(SinkEnvironment environment) throws IOException {
        return new OtlpSink(config, environment.metrics(), environment.clock());
      }
    };
  }
}
