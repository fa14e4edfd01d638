/**
 * The OTLP logs sink ({@code sink.type = otlp}): OpenTelemetry logs over OTLP/HTTP, protobuf or
 * JSON, to Loki 3's {@code /otlp} endpoint, an OpenTelemetry Collector or any OTLP backend.
 */
package io.sf2loki.otlp;
