package io.sf2loki.otlp;

import io.sf2loki.loki.HttpSinkSupport;
import io.sf2loki.model.LabelSetMemo;
import io.sf2loki.model.StringMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Loki stream a record lands in when Loki 3 ingests it over OTLP (Loki's {@code
 * pkg/loghttp/push/otlp.go}): its resource attributes that are in Loki's default index list ({@code
 * -distributor.otlp.default_resource_attributes_as_index_labels}; of ours {@code service.name},
 * {@code service.namespace} and {@code deployment.environment.name}), plus the log-record
 * attributes the tenant's {@code otlp_config} indexes ({@code sink.otlp.loki.index_attributes}); a
 * log attribute wins over a resource attribute of the same label name, as in Loki. Names are
 * normalised as Loki's {@code otlptranslator.LabelNamer} does ({@link #labelName}). Loki adds
 * {@code service_name} itself only when {@code service.name} is missing, which ours never is.
 *
 * <p>These label sets are what Loki prints in its 400 answers, so the planner's lessons match them.
 * Thread-safe.
 */
final class LokiStreams implements HttpSinkSupport.StreamOf {

  private final LogRecordMapping mapping;
  private final List<String> attributes;
  private final List<String> names;
  // Of the labels alone: most entries carry every indexed attribute as a label (event_type,
  // source), so one instance per label set keeps the planner's identity fast path.
  private final LabelSetMemo<StringMap> byLabels = new LabelSetMemo<>();

  LokiStreams(LogRecordMapping mapping, List<String> indexAttributes) {
    this.mapping = mapping;
    this.attributes = List.copyOf(indexAttributes);
    this.names = attributes.stream().map(LokiStreams::labelName).toList();
  }

  @Override
  public StringMap of(StringMap labels, StringMap metadata) {
    StringMap fromLabels = byLabels.get(labels, this::fromLabels);
    Map<String, String> more = null;
    for (int i = 0; i < attributes.size(); i++) {
      String a = attributes.get(i);
      if (names.get(i) == null || labels.containsKey(a) || LogRecordMapping.isResourceLabel(a)) {
        continue; // in fromLabels already, or not a log attribute at all
      }
      String v = LogRecordMapping.attribute(a, labels, metadata);
      if (v != null) {
        if (more == null) {
          more = new TreeMap<>(fromLabels);
        }
        more.put(names.get(i), v);
      }
    }
    return more == null ? fromLabels : StringMap.of(more);
  }

  private StringMap fromLabels(StringMap labels) {
    Map<String, String> stream = new TreeMap<>();
    mapping.resource(labels).forEach((k, v) -> stream.put(labelName(k), v));
    for (int i = 0; i < attributes.size(); i++) {
      String v =
          LogRecordMapping.isResourceLabel(attributes.get(i))
              ? null
              : labels.get(attributes.get(i));
      if (v != null && names.get(i) != null) {
        stream.put(names.get(i), v);
      }
    }
    return StringMap.of(stream);
  }

  /**
   * The label name Loki gives an attribute (Prometheus' {@code otlptranslator.LabelNamer}, UTF-8
   * names off): every run of characters other than ASCII letters and digits becomes one {@code _}
   * ({@code service.name} to {@code service_name}), a name {@code __x__} keeps its wrapping, a name
   * starting with a digit gets {@code key_} in front. Null for a name Loki cannot make a label of
   * (empty, or only underscores).
   */
  static String labelName(String attribute) {
    if (attribute.isEmpty()) {
      return null;
    }
    String name = attribute;
    boolean reserved = name.length() >= 4 && name.startsWith("__") && name.endsWith("__");
    if (reserved) {
      name = name.substring(2, name.length() - 2);
    }
    StringBuilder b = new StringBuilder(name.length());
    boolean underscore = false;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
        b.append(c);
        underscore = false;
      } else if (!underscore) {
        b.append('_');
        underscore = true;
      }
    }
    String out = reserved ? "__" + b + "__" : b.toString();
    if (out.isEmpty()) {
      return null;
    }
    if (Character.isDigit(out.charAt(0))) {
      out = "key_" + out;
    }
    return out.chars().allMatch(c -> c == '_') ? null : out;
  }
}
