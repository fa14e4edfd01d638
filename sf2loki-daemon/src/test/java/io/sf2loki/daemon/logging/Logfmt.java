package io.sf2loki.daemon.logging;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A logfmt reader written from the format's rules (go-logfmt): space-separated {@code key=value}
 * pairs, a value bare or in double quotes with backslash escapes. Strict: anything else fails.
 */
final class Logfmt {

  private Logfmt() {}

  static Map<String, String> parse(String line) {
    Map<String, String> pairs = new LinkedHashMap<>();
    int i = 0;
    while (i < line.length()) {
      int eq = line.indexOf('=', i);
      if (eq <= i) {
        throw new IllegalArgumentException("no key at " + i + ": " + line);
      }
      String key = line.substring(i, eq);
      if (key.contains(" ") || key.contains("\"")) {
        throw new IllegalArgumentException("bad key '" + key + "'");
      }
      i = eq + 1;
      StringBuilder value = new StringBuilder();
      if (i < line.length() && line.charAt(i) == '"') {
        i++;
        while (line.charAt(i) != '"') {
          char c = line.charAt(i++);
          if (c == '\\') {
            char e = line.charAt(i++);
            switch (e) {
              case 'n' -> value.append('\n');
              case 'r' -> value.append('\r');
              case 't' -> value.append('\t');
              case 'u' -> {
                value.append((char) Integer.parseInt(line.substring(i, i + 4), 16));
                i += 4;
              }
              case '\\', '"' -> value.append(e);
              default -> throw new IllegalArgumentException("bad escape \\" + e);
            }
          } else if (c < ' ') {
            throw new IllegalArgumentException("raw control character in a quoted value");
          } else {
            value.append(c);
          }
        }
        i++; // the closing quote
      } else {
        while (i < line.length() && line.charAt(i) != ' ') {
          char c = line.charAt(i++);
          if (c == '=' || c == '"' || c < ' ') {
            throw new IllegalArgumentException("unquoted value holds '" + c + "'");
          }
          value.append(c);
        }
      }
      if (pairs.put(key, value.toString()) != null) {
        throw new IllegalArgumentException("duplicate key " + key);
      }
      if (i < line.length()) {
        if (line.charAt(i) != ' ') {
          throw new IllegalArgumentException("no space after a value at " + i);
        }
        i++;
      }
    }
    return pairs;
  }
}
