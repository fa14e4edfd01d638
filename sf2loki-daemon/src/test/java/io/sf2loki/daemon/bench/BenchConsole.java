package io.sf2loki.daemon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What the daemon's benches print: plain lines, the machine's load, and one RESULT line per
 * freshness.
 */
public final class BenchConsole {

  private BenchConsole() {}

  /** The {@code key=value} arguments of a bench; a bare {@code key} is {@code key=true}. */
  public static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (String a : args) {
      String[] kv = a.split("=", 2);
      options.put(kv[0], kv.length > 1 ? kv[1] : "true");
    }
    return options;
  }

  /** The first line of a bench's output: its name, the time, the load, the machine, the options. */
  public static void header(String bench, Map<String, String> options) {
    say(
        bench
            + " "
            + LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
            + ", load "
            + load()
            + ", "
            + Runtime.getRuntime().availableProcessors()
            + " CPUs, java "
            + System.getProperty("java.version")
            + ", options "
            + options);
  }

  public static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  /** {@code /proc/loadavg}: the 1, 5 and 15 minute load averages, and more. */
  public static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** The percentiles of {@code r}'s measured events, and how many of {@code total} arrived. */
  static void result(String name, FreshnessRecorder r, int total) {
    Histogram h = r.histogram();
    say(
        String.format(
            Locale.ROOT,
            "RESULT %s: p50 %s, p90 %s, p99 %s, p99.9 %s, max %s over %,d events"
                + " (%,d of %,d arrived, %,d repeats)",
            name,
            ms(h.getValueAtPercentile(50)),
            ms(h.getValueAtPercentile(90)),
            ms(h.getValueAtPercentile(99)),
            ms(h.getValueAtPercentile(99.9)),
            ms(h.getMaxValue()),
            h.getTotalCount(),
            r.arrivedCount(),
            total,
            r.duplicates()));
  }

  private static String ms(long micros) {
    return String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
  }
}
