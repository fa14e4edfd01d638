package io.sf2loki.loki;

import io.sf2loki.model.LogEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Loki stream of a push request: a label set and its entries in timestamp order (stable, so
 * entries with equal timestamps keep their enqueue order).
 *
 * @param labels the label set, sorted by name
 * @param entries the entries
 */
record LokiStream(Map<String, String> labels, List<LogEntry> entries) {

  LokiStream {
    labels = Map.copyOf(labels);
    entries = List.copyOf(entries);
  }

  /** Groups entries by their exact label set, streams in first-seen order. */
  static List<LokiStream> group(List<LogEntry> entries) {
    Map<Map<String, String>, List<LogEntry>> byLabels = new LinkedHashMap<>();
    for (LogEntry e : entries) {
      byLabels.computeIfAbsent(e.labels(), k -> new ArrayList<>()).add(e);
    }
    List<LokiStream> streams = new ArrayList<>(byLabels.size());
    byLabels.forEach(
        (labels, list) -> {
          list.sort(Comparator.comparingLong(LogEntry::timestampNanos)); // stable
          streams.add(new LokiStream(labels, list));
        });
    return streams;
  }

  /**
   * The selector string {@code {k1="v1",k2="v2"}}: names sorted, no spaces, values escaped ({@code
   * \} → {@code \\}, {@code "} → {@code \"}, newline → {@code \n}); {@code {}} when empty.
   */
  static String selector(Map<String, String> labels) {
    StringBuilder sb = new StringBuilder("{");
    labels.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              if (sb.length() > 1) {
                sb.append(',');
              }
              sb.append(e.getKey()).append("=\"");
              escape(e.getValue(), sb);
              sb.append('"');
            });
    return sb.append('}').toString();
  }

  private static void escape(String value, StringBuilder sb) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '"' -> sb.append("\\\"");
        case '\n' -> sb.append("\\n");
        default -> sb.append(c);
      }
    }
  }
}
