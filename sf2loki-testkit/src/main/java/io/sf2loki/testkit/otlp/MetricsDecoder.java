package io.sf2loki.testkit.otlp;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.SummaryDataPoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/** An {@code ExportMetricsServiceRequest} as {@link ReceivedPoint}s. */
final class MetricsDecoder {

  private MetricsDecoder() {}

  static List<ReceivedPoint> points(ExportMetricsServiceRequest request) {
    List<ReceivedPoint> points = new ArrayList<>();
    for (ResourceMetrics rm : request.getResourceMetricsList()) {
      Map<String, String> resource = attributes(rm.getResource().getAttributesList());
      for (ScopeMetrics sm : rm.getScopeMetricsList()) {
        for (Metric m : sm.getMetricsList()) {
          add(points, m, resource);
        }
      }
    }
    return points;
  }

  private static void add(List<ReceivedPoint> out, Metric m, Map<String, String> resource) {
    String type = m.getDataCase().name().toLowerCase(Locale.ROOT);
    switch (m.getDataCase()) {
      case GAUGE ->
          m.getGauge().getDataPointsList().forEach(p -> out.add(number(m, type, resource, p)));
      case SUM ->
          m.getSum().getDataPointsList().forEach(p -> out.add(number(m, type, resource, p)));
      case HISTOGRAM ->
          counted(
              out,
              m,
              type,
              resource,
              m.getHistogram().getDataPointsList(),
              HistogramDataPoint::getAttributesList,
              HistogramDataPoint::getCount,
              HistogramDataPoint::getTimeUnixNano);
      case EXPONENTIAL_HISTOGRAM ->
          counted(
              out,
              m,
              type,
              resource,
              m.getExponentialHistogram().getDataPointsList(),
              ExponentialHistogramDataPoint::getAttributesList,
              ExponentialHistogramDataPoint::getCount,
              ExponentialHistogramDataPoint::getTimeUnixNano);
      case SUMMARY ->
          counted(
              out,
              m,
              type,
              resource,
              m.getSummary().getDataPointsList(),
              SummaryDataPoint::getAttributesList,
              SummaryDataPoint::getCount,
              SummaryDataPoint::getTimeUnixNano);
      case DATA_NOT_SET -> {}
    }
  }

  /** Points whose value is their count (histograms, summaries). */
  private static <P> void counted(
      List<ReceivedPoint> out,
      Metric m,
      String type,
      Map<String, String> resource,
      List<P> points,
      Function<P, List<KeyValue>> attributes,
      ToLongFunction<P> count,
      ToLongFunction<P> time) {
    for (P p : points) {
      out.add(
          point(m, type, resource, attributes.apply(p), count.applyAsLong(p), time.applyAsLong(p)));
    }
  }

  private static ReceivedPoint number(
      Metric m, String type, Map<String, String> resource, NumberDataPoint p) {
    double value =
        p.getValueCase() == NumberDataPoint.ValueCase.AS_INT ? p.getAsInt() : p.getAsDouble();
    return point(m, type, resource, p.getAttributesList(), value, p.getTimeUnixNano());
  }

  private static ReceivedPoint point(
      Metric m,
      String type,
      Map<String, String> resource,
      List<KeyValue> attributes,
      double value,
      long timeUnixNano) {
    return new ReceivedPoint(
        m.getName(),
        type,
        resource,
        attributes(attributes),
        value,
        Instant.ofEpochSecond(0, timeUnixNano));
  }

  static Map<String, String> attributes(List<KeyValue> list) {
    Map<String, String> out = new LinkedHashMap<>();
    for (KeyValue kv : list) {
      out.put(kv.getKey(), text(kv.getValue()));
    }
    return out;
  }

  private static String text(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue();
      case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
      case INT_VALUE -> Long.toString(v.getIntValue());
      case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
      default -> v.toString().strip();
    };
  }
}
