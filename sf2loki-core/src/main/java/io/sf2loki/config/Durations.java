package io.sf2loki.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the duration forms the configuration accepts: {@code 500ms}, {@code 30s}, {@code 5m},
 * {@code 1h30m}, {@code 2d}, ISO-8601 ({@code PT5M}) and plain seconds ({@code 30}, {@code 0.5}).
 *
 * <p>Typesafe Config's own parser reads a bare number as milliseconds; the Python sf2loki reads it
 * as seconds, and config files move between the two, so we parse ourselves.
 */
public final class Durations {

  private static final Pattern UNIT_PART =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)", Pattern.CASE_INSENSITIVE);
  private static final Pattern COMPOUND =
      Pattern.compile("(?:\\d+(?:\\.\\d+)?\\s*(?:ms|s|m|h|d)\\s*)+", Pattern.CASE_INSENSITIVE);
  private static final Pattern PLAIN_SECONDS = Pattern.compile("\\d+(?:\\.\\d+)?");

  private Durations() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException with a message listing the accepted forms
   */
  public static Duration parse(String text) {
    String s = text.trim();
    if (s.isEmpty()) {
      throw invalid(text);
    }
    if (s.startsWith("P") || s.startsWith("p")) {
      try {
        return Duration.parse(s.toUpperCase(java.util.Locale.ROOT));
      } catch (DateTimeParseException e) {
        throw invalid(text);
      }
    }
    if (PLAIN_SECONDS.matcher(s).matches()) {
      return ofSeconds(Double.parseDouble(s));
    }
    if (!COMPOUND.matcher(s).matches()) {
      throw invalid(text);
    }
    Duration total = Duration.ZERO;
    Matcher m = UNIT_PART.matcher(s);
    while (m.find()) {
      double amount = Double.parseDouble(m.group(1));
      total =
          total.plus(
              switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
                case "ms" -> Duration.ofNanos(Math.round(amount * 1_000_000d));
                case "s" -> ofSeconds(amount);
                case "m" -> ofSeconds(amount * 60);
                case "h" -> ofSeconds(amount * 3600);
                default -> ofSeconds(amount * 86400);
              });
    }
    return total;
  }

  /** Renders a duration in the compact form the parser accepts ({@code 1h30m}, {@code 500ms}). */
  public static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    if (d.toMillis() < 1000 || d.toNanos() % 1_000_000_000L != 0) {
      return d.toMillis() + "ms";
    }
    long seconds = d.getSeconds();
    StringBuilder out = new StringBuilder();
    long[] sizes = {86400, 3600, 60, 1};
    String[] units = {"d", "h", "m", "s"};
    for (int i = 0; i < sizes.length; i++) {
      if (seconds >= sizes[i]) {
        out.append(seconds / sizes[i]).append(units[i]);
        seconds %= sizes[i];
      }
    }
    return out.toString();
  }

  private static Duration ofSeconds(double seconds) {
    return Duration.ofNanos(Math.round(seconds * 1_000_000_000d));
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException(
        "'"
            + text
            + "' is not a duration (use forms like 500ms, 30s, 5m, 1h30m, PT5M, or plain seconds)");
  }
}
