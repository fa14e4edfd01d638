/**
 * OTLP/HTTP receivers on loopback, decoding real requests with the official {@code
 * opentelemetry-proto} classes: metrics ({@link io.sf2loki.testkit.otlp.FakeOtlpReceiver}, every
 * data point by metric name with the resource's and the point's attributes) and logs ({@link
 * io.sf2loki.testkit.otlp.FakeOtlpLogs}, every record with the labels and structured metadata Loki
 * 3's OTLP endpoint would give it, success, partial success and scripted failures, and on request a
 * Loki's time windows answered as Loki's OTLP endpoint answers them).
 */
package io.sf2loki.testkit.otlp;
