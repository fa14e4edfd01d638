package io.sf2loki.cli.migrate;

import io.sf2loki.cli.migrate.MigrationNote.Kind;

/** A secret and its {@code _file} twin, which both loaders know, with one difference in blanks. */
final class Secrets {

  private Secrets() {}

  static void copy(PythonSection section, String name, String target) {
    String fileName = name + "_file";
    var inline = section.string(name);
    var file = section.string(fileName);
    // Both are copied as written: a reference (${VAR}, a path) stays one; no file is read here.
    inline.ifPresent(v -> section.set(name, target, v));
    file.ifPresent(v -> section.set(fileName, target + "_file", v));
    if (inline.isPresent() && inline.get().isBlank() && file.isPresent()) {
      // Python counts a blank inline value as present (it hides the file); ours counts it missing.
      section
          .conversion()
          .note(
              section.key(name),
              Kind.DIFFERENT_SEMANTICS,
              "blank here means unset, so " + fileName + " is read instead of the empty value");
    }
  }
}
