package io.sf2loki.cli.migrate;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Python sf2loki durations as our config writes them. Python takes unit shorthand joined without
 * spaces and with decimals ({@code 1h30m}, {@code 1.5h}, {@code 2w}), ISO-8601, a YAML number of
 * seconds and the clock forms {@code 01:02:03} and {@code 1d,01:00:00}; ours has no weeks, decimals
 * or clock forms, so every value is rewritten as a whole number of its largest exact unit.
 */
final class PythonDurations {

  private static final Pattern SHORTHAND_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d|w)");
  private static final Pattern SHORTHAND = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:ms|s|m|h|d|w))+");
  private static final Pattern CLOCK =
      Pattern.compile("(?:(\\d+)d,?)?(\\d{1,2}):(\\d{2}):(\\d{2}(?:\\.\\d+)?)");

  private PythonDurations() {}

  /**
   * Our text for a Python duration value, or empty when Python would refuse it. A string holding a
   * {@code ${VAR}} reference is returned unchanged: the variable's value is only known at load.
   */
  static Optional<String> toConfigText(Object value) {
    if (value instanceof Number number) {
      return Optional.of(text(seconds(new BigDecimal(number.toString()))));
    }
    if (!(value instanceof String raw)) {
      return Optional.empty();
    }
    String text = raw.strip();
    if (text.contains("${")) {
      return Optional.of(text);
    }
    if (SHORTHAND.matcher(text).matches()) {
      return Optional.of(text(shorthand(text)));
    }
    Matcher clock = CLOCK.matcher(text);
    if (clock.matches()) {
      BigDecimal days = clock.group(1) == null ? BigDecimal.ZERO : new BigDecimal(clock.group(1));
      BigDecimal total =
          days.multiply(BigDecimal.valueOf(86_400))
              .add(new BigDecimal(clock.group(2)).multiply(BigDecimal.valueOf(3_600)))
              .add(new BigDecimal(clock.group(3)).multiply(BigDecimal.valueOf(60)))
              .add(new BigDecimal(clock.group(4)));
      return Optional.of(text(seconds(total)));
    }
    if (text.startsWith("P") || text.startsWith("-P")) {
      try {
        return Optional.of(text(Duration.parse(text).toMillis()));
      } catch (DateTimeParseException e) {
        return Optional.empty();
      }
    }
    // A number in a string ("30") is refused by Python: only a YAML number means seconds.
    return Optional.empty();
  }

  private static long shorthand(String text) {
    Matcher part = SHORTHAND_PART.matcher(text);
    BigDecimal millis = BigDecimal.ZERO;
    while (part.find()) {
      long unit =
          switch (part.group(2)) {
            case "ms" -> 1L;
            case "s" -> 1_000L;
            case "m" -> 60_000L;
            case "h" -> 3_600_000L;
            case "d" -> 86_400_000L;
            default -> 604_800_000L; // w
          };
      millis = millis.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(unit)));
    }
    return millis.setScale(0, RoundingMode.HALF_UP).longValueExact();
  }

  private static long seconds(BigDecimal seconds) {
    return seconds
        .multiply(BigDecimal.valueOf(1_000))
        .setScale(0, RoundingMode.HALF_UP)
        .longValueExact();
  }

  private static String text(long millis) {
    if (millis == 0) {
      return "0s";
    }
    String sign = millis < 0 ? "-" : "";
    long abs = Math.abs(millis);
    if (abs % 86_400_000L == 0) {
      return sign + abs / 86_400_000L + "d";
    }
    if (abs % 3_600_000L == 0) {
      return sign + abs / 3_600_000L + "h";
    }
    if (abs % 60_000L == 0) {
      return sign + abs / 60_000L + "m";
    }
    if (abs % 1_000L == 0) {
      return sign + abs / 1_000L + "s";
    }
    return sign + abs + "ms";
  }
}
