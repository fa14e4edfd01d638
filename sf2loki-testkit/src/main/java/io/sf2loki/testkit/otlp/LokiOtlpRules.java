package io.sf2loki.testkit.otlp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How Loki 3's {@code /otlp/v1/logs} turns a record into a stream and structured metadata: the
 * default resource attributes ({@code
 * -distributor.otlp.default_resource_attributes_as_index_labels}) become labels, every other
 * resource, scope and log attribute structured metadata, names normalised as Loki does ({@link
 * #name}: {@code service.name} to {@code service_name}); {@code severity_text} is kept as metadata
 * {@code severity_text}, a trace id as {@code trace_id}. A tenant's {@code
 * limits_config.otlp_config} may promote log attributes with {@code action: index_label}: the
 * attribute names given to {@link #promoting} are such a configuration.
 */
public final class LokiOtlpRules {

  /** Loki's default resource attributes indexed as labels. */
  public static final List<String> DEFAULT_RESOURCE_LABELS =
      List.of(
          "service.name",
          "service.namespace",
          "service.instance.id",
          "deployment.environment",
          "deployment.environment.name",
          "cloud.region",
          "cloud.availability_zone",
          "k8s.cluster.name",
          "k8s.namespace.name",
          "k8s.pod.name",
          "k8s.container.name",
          "container.name",
          "k8s.replicaset.name",
          "k8s.deployment.name",
          "k8s.statefulset.name",
          "k8s.daemonset.name",
          "k8s.cronjob.name",
          "k8s.job.name");

  private final Set<String> promotedLogAttributes;

  private LokiOtlpRules(Set<String> promotedLogAttributes) {
    this.promotedLogAttributes = Set.copyOf(promotedLogAttributes);
  }

  /** Loki's defaults, no {@code otlp_config}. */
  public static LokiOtlpRules defaults() {
    return new LokiOtlpRules(Set.of());
  }

  /**
   * The defaults plus {@code otlp_config.log_attributes: [{action: index_label, attributes:
   * [names]}]}.
   */
  public static LokiOtlpRules promoting(Set<String> logAttributes) {
    return new LokiOtlpRules(logAttributes);
  }

  /** The labels of a record with these resource and log attributes. */
  Map<String, String> labels(Map<String, String> resource, Map<String, String> attributes) {
    Map<String, String> labels = new TreeMap<>();
    resource.forEach(
        (k, v) -> {
          if (DEFAULT_RESOURCE_LABELS.contains(k)) {
            labels.put(name(k), v);
          }
        });
    attributes.forEach(
        (k, v) -> {
          if (promotedLogAttributes.contains(k)) {
            labels.put(name(k), v);
          }
        });
    return labels;
  }

  /** The structured metadata of a record. */
  Map<String, String> metadata(
      Map<String, String> resource,
      Map<String, String> scope,
      Map<String, String> attributes,
      String severityText,
      String traceId) {
    Map<String, String> metadata = new LinkedHashMap<>();
    resource.forEach(
        (k, v) -> {
          if (!DEFAULT_RESOURCE_LABELS.contains(k)) {
            metadata.put(name(k), v);
          }
        });
    scope.forEach((k, v) -> metadata.put(name(k), v));
    attributes.forEach(
        (k, v) -> {
          if (!promotedLogAttributes.contains(k)) {
            metadata.put(name(k), v);
          }
        });
    if (!severityText.isEmpty()) {
      metadata.put("severity_text", severityText);
    }
    if (!traceId.isEmpty()) {
      metadata.put("trace_id", traceId);
    }
    return metadata;
  }

  /**
   * The label name Loki gives an attribute, as Prometheus' {@code otlptranslator.LabelNamer} makes
   * it (UTF-8 names off, Loki's setting): every run of characters other than ASCII letters and
   * digits becomes one {@code _}, a {@code __name__} keeps its wrapping, a name starting with a
   * digit gets {@code key_} in front.
   */
  static String name(String attribute) {
    String inner = attribute;
    boolean reserved = inner.length() >= 4 && inner.startsWith("__") && inner.endsWith("__");
    if (reserved) {
      inner = inner.substring(2, inner.length() - 2);
    }
    StringBuilder b = new StringBuilder(inner.length());
    boolean underscore = false;
    for (int i = 0; i < inner.length(); i++) {
      char c = inner.charAt(i);
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
        b.append(c);
        underscore = false;
      } else if (!underscore) {
        b.append('_');
        underscore = true;
      }
    }
    String out = reserved ? "__" + b + "__" : b.toString();
    return !out.isEmpty() && Character.isDigit(out.charAt(0)) ? "key_" + out : out;
  }
}
