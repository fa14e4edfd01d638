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
 * resource, scope and log attribute structured metadata, names with dots (and other characters a
 * label name may not have) as underscores; {@code severity_text} is kept as metadata {@code
 * severity_text}, a trace id as {@code trace_id}. A tenant's {@code limits_config.otlp_config} may
 * promote log attributes with {@code action: index_label}: the attribute names given to {@link
 * #promoting} are such a configuration.
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

  /** A Prometheus label name: every character but letters, digits and {@code _} as {@code _}. */
  static String name(String attribute) {
    StringBuilder b = new StringBuilder(attribute.length());
    for (int i = 0; i < attribute.length(); i++) {
      char c = attribute.charAt(i);
      boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9';
      b.append(ok && !(i == 0 && c >= '0' && c <= '9') ? c : '_');
    }
    return b.toString();
  }
}
