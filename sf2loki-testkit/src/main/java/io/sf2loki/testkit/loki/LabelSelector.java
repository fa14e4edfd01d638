package io.sf2loki.testkit.loki;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses a Loki label selector {@code {k="v",k2="v2"}} as the protobuf {@code labels} field. */
final class LabelSelector {

  private LabelSelector() {}

  /**
   * Parses a selector; names are returned as written (validated later by the rules).
   *
   * @throws IllegalArgumentException when the text is not a selector
   */
  static Map<String, String> parse(String text) {
    String s = text.trim();
    if (!s.startsWith("{") || !s.endsWith("}")) {
      throw new IllegalArgumentException("labels '" + text + "' are not a {...} selector");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    int i = 1;
    int end = s.length() - 1;
    while (i < end) {
      int eq = s.indexOf('=', i);
      if (eq < 0 || eq + 1 >= end || s.charAt(eq + 1) != '"') {
        throw new IllegalArgumentException("malformed selector '" + text + "'");
      }
      String name = s.substring(i, eq).trim();
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      for (; j < end && s.charAt(j) != '"'; j++) {
        char c = s.charAt(j);
        if (c == '\\' && j + 1 < end) {
          char n = s.charAt(++j);
          value.append(n == 'n' ? '\n' : n);
        } else {
          value.append(c);
        }
      }
      if (j >= end) {
        throw new IllegalArgumentException("unterminated value in '" + text + "'");
      }
      if (labels.put(name, value.toString()) != null) {
        throw new IllegalArgumentException("duplicate label name '" + name + "'");
      }
      i = j + 1;
      if (i < end && s.charAt(i) == ',') {
        i++;
      }
      while (i < end && s.charAt(i) == ' ') {
        i++;
      }
    }
    return labels;
  }
}
