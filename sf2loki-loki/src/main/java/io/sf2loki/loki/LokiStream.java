package io.sf2loki.loki;

import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
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
record LokiStream(StringMap labels, List<LogEntry> entries) {

  LokiStream {
    labels = StringMap.of(labels);
    entries = List.copyOf(entries);
  }

  /**
   * Groups entries by their exact label set, streams in first-seen order. Label sets are usually
   * shared instances with a memoised hash, so each lookup is a hash read and an identity check.
   */
  static List<LokiStream> group(List<LogEntry> entries) {
    Map<StringMap, List<LogEntry>> byLabels = new LinkedHashMap<>();
    StringMap lastLabels = null;
    List<LogEntry> last = null;
    for (LogEntry e : entries) {
      StringMap labels = e.labels();
      if (labels != lastLabels) {
        last = byLabels.computeIfAbsent(labels, k -> new ArrayList<>());
        lastLabels = labels;
      }
      last.add(e);
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
  static String selector(Map<String, String> labelSet) {
    StringMap labels = StringMap.of(labelSet); // no copy when it already is one
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < labels.size(); i++) { // StringMap iterates sorted by name
      if (i > 0) {
        sb.append(',');
      }
      sb.append(labels.keyAt(i)).append("=\"");
      escape(labels.valueAt(i), sb);
      sb.append('"');
    }
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
