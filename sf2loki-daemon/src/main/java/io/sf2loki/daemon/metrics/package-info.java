/**
 * The daemon's metrics beyond the {@code /metrics} scrape: the OTLP/HTTP push ({@code
 * service.metrics.otlp}) through Micrometer's OTLP registry, next to the Prometheus one.
 */
package io.sf2loki.daemon.metrics;
