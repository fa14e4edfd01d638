package io.sf2loki.otlp;

import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How one {@link LogEntry} becomes an OpenTelemetry log record (docs/sinks/otlp.md, "Mapping"): the
 * labels {@code service_name}, {@code org} and {@code environment} make its resource, every other
 * label and every structured-metadata field but {@code level} is a log-record attribute, {@code
 * level} is its severity, and a {@code request_id} that is an OpenTelemetry trace id is its {@code
 * trace_id}. Both encoders use it, so the JSON and the protobuf agree.
 */
final class LogRecordMapping {

  /** The resource attribute keys, in the order they are written. */
  static final String SERVICE_NAME = "service.name";

  static final String SERVICE_NAMESPACE = "service.namespace";
  static final String ENVIRONMENT = "deployment.environment.name";

  /** The metadata (or label) the severity comes from. */
  static final String LEVEL = "level";

  private final String serviceName;
  private final Optional<String> serviceNamespace;
  private final Optional<String> environment;

  LogRecordMapping(OtlpSinkConfig config) {
    this(config.serviceName(), config.serviceNamespace(), config.environment());
  }

  LogRecordMapping(
      String serviceName, Optional<String> serviceNamespace, Optional<String> environment) {
    this.serviceName = serviceName;
    this.serviceNamespace = serviceNamespace;
    this.environment = environment;
  }

  /** The resource attributes of {@code e}, in a fixed order: entries grouped by this map. */
  Map<String, String> resource(LogEntry e) {
    return resource(e.labels());
  }

  /** The resource attributes of an entry with these labels. */
  Map<String, String> resource(StringMap labels) {
    Map<String, String> r = new LinkedHashMap<>(4);
    r.put(SERVICE_NAME, labels.getOrDefault("service_name", serviceName));
    String namespace = labels.get("org");
    if (namespace == null) {
      namespace = serviceNamespace.orElse(null);
    }
    if (namespace != null) {
      r.put(SERVICE_NAMESPACE, namespace);
    }
    String env = labels.get("environment");
    if (env == null) {
      env = environment.orElse(null);
    }
    if (env != null) {
      r.put(ENVIRONMENT, env);
    }
    return r;
  }

  /**
   * The log-record attributes of {@code e}: its labels but those of the resource, then its metadata
   * but {@code level} (a metadata field named like a label is the label's).
   */
  static List<Map.Entry<String, String>> attributes(LogEntry e) {
    StringMap labels = e.labels();
    StringMap metadata = e.metadata();
    List<Map.Entry<String, String>> out = new ArrayList<>(labels.size() + metadata.size());
    for (int i = 0; i < labels.size(); i++) {
      String k = labels.keyAt(i);
      if (!isResourceLabel(k)) {
        out.add(Map.entry(k, labels.valueAt(i)));
      }
    }
    for (int i = 0; i < metadata.size(); i++) {
      String k = metadata.keyAt(i);
      if (!k.equals(LEVEL) && !labels.containsKey(k)) {
        out.add(Map.entry(k, metadata.valueAt(i)));
      }
    }
    return out;
  }

  /** Whether label {@code name} makes a resource attribute rather than a log-record attribute. */
  static boolean isResourceLabel(String name) {
    return name.equals("service_name") || name.equals("org") || name.equals("environment");
  }

  /**
   * The value of log-record attribute {@code name} of an entry with these labels and metadata, or
   * null: as {@link #attributes} makes them (a label first, then a metadata field but {@code
   * level}).
   */
  static String attribute(String name, StringMap labels, StringMap metadata) {
    if (isResourceLabel(name)) {
      return null;
    }
    String v = labels.get(name);
    if (v != null || name.equals(LEVEL)) {
      return v;
    }
    return metadata.get(name);
  }

  /** The level text of {@code e} (metadata first, then a promoted label), when it has one. */
  static Optional<String> level(LogEntry e) {
    String v = e.metadata().get(LEVEL);
    if (v == null) {
      v = e.labels().get(LEVEL);
    }
    return Optional.ofNullable(v).filter(s -> !s.isEmpty());
  }

  /**
   * OpenTelemetry's {@code SeverityNumber} of a level text: the first of its range (TRACE 1, DEBUG
   * 5, INFO 9, WARN 13, ERROR 17, FATAL 21), 0 (unspecified) for a text it does not know.
   */
  static int severityNumber(String level) {
    return switch (level.strip().toLowerCase(Locale.ROOT)) {
      case "trace" -> 1;
      case "debug" -> 5;
      case "info", "information", "notice" -> 9;
      case "warn", "warning" -> 13;
      case "error", "err" -> 17;
      case "fatal", "critical", "crit", "panic", "emergency", "alert" -> 21;
      default -> 0;
    };
  }

  /**
   * The 16 bytes of {@code e}'s {@code request_id} (metadata, any case of the key) when it is an
   * OpenTelemetry trace id: 32 hex digits, not all zero (the W3C invalid id).
   */
  static Optional<byte[]> traceId(LogEntry e) {
    StringMap metadata = e.metadata();
    for (int i = 0; i < metadata.size(); i++) {
      if (metadata.keyAt(i).equalsIgnoreCase("request_id")) {
        return traceIdOf(metadata.valueAt(i));
      }
    }
    return Optional.empty();
  }

  static Optional<byte[]> traceIdOf(String text) {
    if (text.length() != 32) {
      return Optional.empty();
    }
    byte[] id = new byte[16];
    boolean zero = true;
    for (int i = 0; i < 16; i++) {
      int hi = Character.digit(text.charAt(2 * i), 16);
      int lo = Character.digit(text.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        return Optional.empty();
      }
      id[i] = (byte) (hi << 4 | lo);
      zero &= id[i] == 0;
    }
    return zero ? Optional.empty() : Optional.of(id);
  }

  /** Entries grouped by resource, each group in the batch's order. */
  Map<Map<String, String>, List<LogEntry>> byResource(List<LogEntry> entries) {
    Map<Map<String, String>, List<LogEntry>> groups = new LinkedHashMap<>();
    for (LogEntry e : entries) {
      groups.computeIfAbsent(resource(e), k -> new ArrayList<>()).add(e);
    }
    return groups;
  }
}
