/**
 * An OpenTelemetry collector's OTLP/HTTP metrics receiver on loopback ({@link
 * io.sf2loki.testkit.otlp.FakeOtlpReceiver}): decodes real {@code ExportMetricsServiceRequest}
 * protobuf with the {@code opentelemetry-proto} classes and records every data point by metric
 * name, with the resource's and the point's attributes.
 */
package io.sf2loki.testkit.otlp;
