package io.sf2loki.cli.migrate;

import java.util.Optional;

/** The Python model's field types, each with its check and conversion to our value. */
enum PythonType {
  STRING,
  BOOL,
  INT,
  NUMBER,
  DURATION,
  STRINGS,
  SCALAR_MAP;

  Optional<Object> convert(Conversion conversion, String key, Object value) {
    return switch (this) {
      case STRING -> PythonValues.string(conversion, key, value).map(s -> s);
      case BOOL -> PythonValues.bool(conversion, key, value);
      case INT -> PythonValues.integer(conversion, key, value);
      case NUMBER -> PythonValues.number(conversion, key, value);
      case DURATION -> PythonValues.duration(conversion, key, value);
      case STRINGS -> PythonValues.strings(conversion, key, value);
      case SCALAR_MAP -> PythonValues.scalarMap(conversion, key, value);
    };
  }
}
