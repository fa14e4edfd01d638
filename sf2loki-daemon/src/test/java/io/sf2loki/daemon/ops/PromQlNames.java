package io.sf2loki.daemon.ops;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sf2loki series a PromQL expression reads: metric names ({@code sf2loki_…}) and recorded
 * series ({@code sf2loki:…}), found outside string literals (so a label value cannot pass for a
 * metric).
 */
final class PromQlNames {

  private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|`[^`]*`");
  private static final Pattern METRIC = Pattern.compile("\\bsf2loki_[a-zA-Z0-9_]+");
  private static final Pattern RECORDED = Pattern.compile("\\bsf2loki:[a-zA-Z0-9_:]+");
  private static final Pattern HISTOGRAM_SERIES = Pattern.compile("_(bucket|count|sum)$");

  private PromQlNames() {}

  /** The {@code sf2loki_} metric names in {@code expr}. */
  static Set<String> metrics(String expr) {
    return find(METRIC, expr);
  }

  /** The {@code sf2loki:} recorded series in {@code expr}. */
  static Set<String> recorded(String expr) {
    return find(RECORDED, expr);
  }

  /**
   * Whether {@code name} is in the reference's {@code documented} names: as listed (a counter's
   * {@code _total}, a gauge, a histogram's {@code _max}), or as a series of a documented histogram
   * ({@code _bucket}, {@code _count}, {@code _sum}).
   */
  static boolean isDocumented(String name, Set<String> documented) {
    return documented.contains(name)
        || documented.contains(HISTOGRAM_SERIES.matcher(name).replaceFirst(""))
            && HISTOGRAM_SERIES.matcher(name).find();
  }

  private static Set<String> find(Pattern pattern, String expr) {
    Set<String> names = new TreeSet<>();
    Matcher m = pattern.matcher(STRING.matcher(expr).replaceAll("\"\""));
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }
}
