package io.sf2loki.daemon.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A systemd unit file read as systemd reads its keys: {@code [Section]} headers, {@code Key=value}
 * lines (a key may repeat), {@code #} and {@code ;} comments. No line continuations: the shipped
 * unit has none.
 *
 * @param sections each section's keys, each key's values in file order
 */
record SystemdUnit(Map<String, Map<String, List<String>>> sections) {

  static SystemdUnit read(Path file) throws IOException {
    Map<String, Map<String, List<String>>> sections = new LinkedHashMap<>();
    Map<String, List<String>> current = null;
    for (String raw : Files.readAllLines(file)) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        current =
            sections.computeIfAbsent(
                line.substring(1, line.length() - 1), s -> new LinkedHashMap<>());
        continue;
      }
      int eq = line.indexOf('=');
      if (current == null || eq < 1) {
        throw new AssertionError(file + ": not a key of a section: " + raw);
      }
      current
          .computeIfAbsent(line.substring(0, eq).strip(), k -> new ArrayList<>())
          .add(line.substring(eq + 1).strip());
    }
    return new SystemdUnit(sections);
  }

  /** The last value of {@code key} in {@code section} (the one systemd applies), or null. */
  String value(String section, String key) {
    List<String> values = sections.getOrDefault(section, Map.of()).get(key);
    return values == null ? null : values.get(values.size() - 1);
  }
}
