package io.sf2loki.cli.migrate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Value checks as pydantic's lax mode makes them: strings must be strings (a YAML number is
 * refused, hence "quote api_version"), while ints, floats and booleans also accept their text.
 */
final class PythonValues {

  private PythonValues() {}

  static Optional<String> string(Conversion conversion, String key, Object value) {
    if (value instanceof String text) {
      return Optional.of(text);
    }
    conversion.problem(
        key,
        "must be a string, not " + describe(value) + " (quote it, as the Python loader needs)");
    return Optional.empty();
  }

  static Optional<Object> bool(Conversion conversion, String key, Object value) {
    if (value instanceof Boolean flag) {
      return Optional.of(flag);
    }
    if (value instanceof String text) {
      switch (text.strip().toLowerCase(Locale.ROOT)) {
        case "true", "yes", "on", "1", "y", "t" -> {
          return Optional.of(Boolean.TRUE);
        }
        case "false", "no", "off", "0", "n", "f" -> {
          return Optional.of(Boolean.FALSE);
        }
        default -> {}
      }
    }
    conversion.problem(key, "must be a boolean, not " + describe(value));
    return Optional.empty();
  }

  static Optional<Object> integer(Conversion conversion, String key, Object value) {
    Optional<BigDecimal> number = decimal(value);
    if (number.isPresent()) {
      try {
        return Optional.of(number.get().stripTrailingZeros().toBigIntegerExact().longValueExact());
      } catch (ArithmeticException e) {
        // falls through to the problem: a fraction or out of range
      }
    }
    conversion.problem(key, "must be an integer, not " + describe(value));
    return Optional.empty();
  }

  static Optional<Object> number(Conversion conversion, String key, Object value) {
    Optional<BigDecimal> number = decimal(value);
    if (number.isPresent()) {
      BigDecimal exact = number.get().stripTrailingZeros();
      return Optional.of(exact.scale() <= 0 ? exact.toBigIntegerExact() : exact.doubleValue());
    }
    conversion.problem(key, "must be a number, not " + describe(value));
    return Optional.empty();
  }

  static Optional<Object> duration(Conversion conversion, String key, Object value) {
    Optional<String> text = PythonDurations.toConfigText(value);
    if (text.isEmpty()) {
      conversion.problem(
          key,
          "must be a duration such as 30s, 1h30m, 1.5h, 2w, PT5M or a YAML number of seconds, not "
              + describe(value));
    }
    return text.map(t -> t);
  }

  static Optional<Object> strings(Conversion conversion, String key, Object value) {
    if (!(value instanceof List<?> list)) {
      conversion.problem(key, "must be a list of strings, not " + describe(value));
      return Optional.empty();
    }
    List<String> strings = new ArrayList<>();
    for (Object element : list) {
      string(conversion, key + "[]", element).ifPresent(strings::add);
    }
    return strings.size() == list.size() ? Optional.of(strings) : Optional.empty();
  }

  /** A mapping of names to strings or numbers (labels, sample rates, match globs). */
  static Optional<Object> scalarMap(Conversion conversion, String key, Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      conversion.problem(key, "must be a mapping, not " + describe(value));
      return Optional.empty();
    }
    Map<String, Object> copy = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      Object member = entry.getValue();
      if (member instanceof String || member instanceof Number) {
        copy.put(String.valueOf(entry.getKey()), member);
      } else {
        conversion.problem(
            key + "." + entry.getKey(), "must be a string or a number, not " + describe(member));
      }
    }
    return copy.size() == map.size() ? Optional.of(copy) : Optional.empty();
  }

  static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map<?, ?>) {
      return "a mapping";
    }
    if (value instanceof List<?>) {
      return "a list";
    }
    if (value instanceof String text) {
      return "the string \"" + text + "\"";
    }
    return "the " + value.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " " + value;
  }

  private static Optional<BigDecimal> decimal(Object value) {
    if (value instanceof Boolean) {
      return Optional.empty();
    }
    try {
      if (value instanceof Number number) {
        return Optional.of(new BigDecimal(number.toString()));
      }
      if (value instanceof String text) {
        return Optional.of(new BigDecimal(text.strip()));
      }
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }
}
