package io.sf2loki.daemon;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.Info;

/** The daemon's Prometheus registry, as {@code /metrics} serves it. */
final class PrometheusRegistries {

  static final String BUILD_INFO = "sf2loki_build_info";

  private PrometheusRegistries() {}

  /**
   * A registry exposing {@code sf2loki_build_info{version}} under its documented name.
   *
   * <p>The engine registers {@code sf2loki_build_info} as a Micrometer gauge, but Micrometer's
   * Prometheus naming drops a gauge's {@code _info} suffix (the 1.x client reserves it for info
   * metrics), which would expose it as {@code sf2loki_build} and break dashboards written against
   * the documented name. The gauge is filtered out here and a native info metric takes its place.
   */
  static PrometheusMeterRegistry create(String version) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().meterFilter(MeterFilter.deny(id -> id.getName().equals(BUILD_INFO)));
    registry.config().meterFilter(new MeterHelp());
    Info.builder()
        .name(BUILD_INFO)
        .help("always 1; the version label carries the build version")
        .labelNames("version")
        .register(registry.getPrometheusRegistry())
        .setLabelValues(version);
    return registry;
  }
}
