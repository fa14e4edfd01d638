package io.sf2loki.source.eventlogfile;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The columns of one EventLogFile: the names of its CSV header (what parsing uses), each with the
 * type the listing gave it in {@code LogFileFieldTypes} (by the name's position in {@code
 * LogFileFieldNames}; empty when the listing has none). Column order does not matter: rows become
 * keyed JSON, so two schemas are the same when they have the same names with the same types.
 *
 * @param columns name to type, in header order
 */
record ElfSchema(Map<String, String> columns) {

  ElfSchema {
    columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
  }

  /**
   * The schema of a file with {@code header}, typed by its listing; empty for a headerless body.
   */
  static Optional<ElfSchema> of(List<String> header, ElfFile listed) {
    if (header.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> listedTypes = new LinkedHashMap<>();
    if (listed.fieldNames().size() == listed.fieldTypes().size()) {
      for (int i = 0; i < listed.fieldNames().size(); i++) {
        listedTypes.put(listed.fieldNames().get(i), listed.fieldTypes().get(i));
      }
    }
    Map<String, String> columns = new LinkedHashMap<>();
    header.forEach(name -> columns.put(name, listedTypes.getOrDefault(name, "")));
    return Optional.of(new ElfSchema(columns));
  }

  /**
   * 16 hex digits of the SHA-256 of the sorted {@code name:type} pairs: what the checkpoint keeps
   * so a restart can tell a change from its first file.
   */
  String hash() {
    StringBuilder canonical = new StringBuilder();
    new TreeMap<>(columns).forEach((n, t) -> canonical.append(n).append(':').append(t).append(','));
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /**
   * What changed from {@code before}: {@code +NEW_COL}, {@code -OLD_COL}, {@code RUN_TIME
   * Number->String}, added columns first, then removed ones, then type changes (only between two
   * listed types). A rename shows as one removed and one added column. Empty: the same schema.
   */
  List<String> differencesFrom(ElfSchema before) {
    List<String> parts = new ArrayList<>();
    for (String n : columns.keySet()) {
      if (!before.columns.containsKey(n)) {
        parts.add("+" + n);
      }
    }
    for (String n : before.columns.keySet()) {
      if (!columns.containsKey(n)) {
        parts.add("-" + n);
      }
    }
    columns.forEach(
        (n, t) -> {
          String old = before.columns.get(n);
          if (old != null && !old.equals(t) && !old.isEmpty() && !t.isEmpty()) {
            parts.add(n + " " + old + "->" + t);
          }
        });
    return parts;
  }

  /** {@code NAME Type, ...} in header order (a type left out when unknown). */
  String describe() {
    List<String> parts = new ArrayList<>();
    columns.forEach((n, t) -> parts.add(t.isEmpty() ? n : n + " " + t));
    return String.join(", ", parts);
  }
}
