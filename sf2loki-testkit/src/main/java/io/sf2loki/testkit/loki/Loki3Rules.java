package io.sf2loki.testkit.loki;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Loki 3's distributor adds to a push, as its defaults do: {@code service_name} ({@code
 * discover_service_name}), {@code detected_level} ({@code discover_log_levels}) and the {@code
 * __stream_shard__} label of automatic stream sharding. Pure functions; the {@link Ingester} keeps
 * the rate state.
 */
final class Loki3Rules {

  /** The label Loki adds; it does not count against {@code max_label_names_per_series}. */
  static final String SERVICE_NAME = "service_name";

  /** The structured metadata name of a discovered level. */
  static final String DETECTED_LEVEL = "detected_level";

  /** The label a sharded stream's parts carry, {@code "0"} up. */
  static final String STREAM_SHARD = "__stream_shard__";

  /** Loki's {@code shard_streams.desired_rate} default: 1536 KB/s. */
  static final long DEFAULT_DESIRED_RATE = 1536L * 1024;

  /** Loki's {@code discover_service_name} default, in its order. */
  static final List<String> SERVICE_LABELS =
      List.of(
          "service",
          "app",
          "application",
          "app_name",
          "name",
          "app_kubernetes_io_name",
          "container",
          "container_name",
          "k8s_container_name",
          "component",
          "workload",
          "job",
          "k8s_job_name");

  /** Loki's {@code log_level_fields} default. */
  static final List<String> LEVEL_FIELDS =
      List.of("level", "LEVEL", "Level", "Severity", "severity", "SEVERITY", "lvl", "LVL", "Lvl");

  private static final Pattern JSON_LEVEL =
      Pattern.compile(
          "\"(level|LEVEL|Level|Severity|severity|SEVERITY|lvl|LVL|Lvl)\"\\s*:\\s*\"([^\"]*)\"");

  /** Loki's level words, in its order of preference for a plain line. */
  private static final List<String[]> WORDS =
      List.of(
          new String[] {"trace", "trace"},
          new String[] {"debug", "debug"},
          new String[] {"fatal", "fatal"},
          new String[] {"critical", "critical"},
          new String[] {"error", "error"},
          new String[] {"err", "error"},
          new String[] {"warning", "warn"},
          new String[] {"warn", "warn"},
          new String[] {"info", "info"});

  private Loki3Rules() {}

  /** {@code labels} with {@code service_name} added unless the client set it. */
  static Map<String, String> withServiceName(Map<String, String> labels) {
    if (labels.containsKey(SERVICE_NAME)) {
      return labels;
    }
    String value = "unknown_service";
    for (String name : SERVICE_LABELS) {
      String v = labels.get(name);
      if (v != null && !v.isEmpty()) {
        value = v;
        break;
      }
    }
    Map<String, String> out = new TreeMap<>(labels);
    out.put(SERVICE_NAME, value);
    return out;
  }

  /** {@code metadata} with {@code detected_level} set (normalised when the client sent it). */
  static Map<String, String> withDetectedLevel(
      Map<String, String> labels, Map<String, String> metadata, String line) {
    Map<String, String> out = new TreeMap<>(metadata);
    String sent = metadata.get(DETECTED_LEVEL);
    out.put(DETECTED_LEVEL, sent != null ? normalise(sent) : detect(labels, metadata, line));
    return out;
  }

  private static String detect(
      Map<String, String> labels, Map<String, String> metadata, String line) {
    for (Map<String, String> source : List.of(labels, metadata)) {
      for (String field : LEVEL_FIELDS) {
        String v = source.get(field);
        if (v != null) {
          return normalise(v);
        }
      }
    }
    Matcher m = JSON_LEVEL.matcher(line);
    if (line.stripLeading().startsWith("{") && m.find()) {
      return normalise(m.group(2));
    }
    return fromWords(line);
  }

  /** Loki's normalisation of a level value; a value it does not know is looked for as a word. */
  static String normalise(String v) {
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "trace", "trc" -> "trace";
      case "debug", "dbg" -> "debug";
      case "info", "inf", "information" -> "info";
      case "warn", "wrn", "warning" -> "warn";
      case "error", "err" -> "error";
      case "critical" -> "critical";
      case "fatal" -> "fatal";
      default -> fromWords(v);
    };
  }

  /** The level word found first in the line (a whole word), else {@code unknown}. */
  private static String fromWords(String line) {
    String lower = line.toLowerCase(Locale.ROOT);
    int best = Integer.MAX_VALUE;
    String level = "unknown";
    for (String[] w : WORDS) {
      int at = boundedIndex(lower, w[0]);
      if (at >= 0 && at < best) {
        best = at;
        level = w[1];
      }
    }
    return level;
  }

  private static int boundedIndex(String s, String word) {
    for (int at = s.indexOf(word); at >= 0; at = s.indexOf(word, at + 1)) {
      boolean startOk = at == 0 || !Character.isLetterOrDigit(s.charAt(at - 1));
      int end = at + word.length();
      boolean endOk = end == s.length() || !Character.isLetterOrDigit(s.charAt(end));
      if (startOk && endOk) {
        return at;
      }
    }
    return -1;
  }

  /** How many shards a stream pushed at {@code rate} bytes/s gets: 1 (unsharded) up. */
  static int shards(long rate, long desiredRate) {
    return (int) Math.max(1, (rate + desiredRate - 1) / desiredRate);
  }

  /** {@code labels} plus the shard label, for one of several shards. */
  static Map<String, String> shard(Map<String, String> labels, int shard) {
    Map<String, String> out = new TreeMap<>(labels);
    out.put(STREAM_SHARD, Integer.toString(shard));
    return out;
  }
}
