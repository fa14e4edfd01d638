package io.sf2loki.daemon.ha;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link ShardFailoverBenchmark} measured per kind of churn step (kill, restart, scale up,
 * scale down): how long until every shard was led again and every live process was within its cap,
 * and how evenly the shards then spread, as max held / ⌈M/N⌉.
 */
final class ChurnFigures {

  /** One step: how long it took to settle, and the shards per live process once settled. */
  private record Step(long settledMillis, ShardOwnership spread) {

    int even() {
      return spread.cap(0);
    }

    double ratio() {
      return (double) spread.mostHeld() / even();
    }
  }

  private final Map<String, List<Step>> steps = new LinkedHashMap<>();

  /** Records a step of kind {@code kind} that settled after {@code millis} as {@code spread}. */
  void record(String kind, long millis, ShardOwnership spread) {
    steps.computeIfAbsent(kind, k -> new ArrayList<>()).add(new Step(millis, spread));
  }

  /** One line per kind of step: settle time median / max, and the spread's worst ratio. */
  List<String> summary(long renewMillis) {
    List<String> out = new ArrayList<>();
    steps.forEach(
        (kind, list) -> {
          List<Long> millis = list.stream().map(Step::settledMillis).toList();
          Step worst =
              list.stream().max((a, b) -> Double.compare(a.ratio(), b.ratio())).orElseThrow();
          long even = list.stream().filter(s -> s.ratio() == 1.0).count();
          out.add(
              String.format(
                  Locale.ROOT,
                  "%s (n=%d): settled after median %,d ms (%.1f renew intervals), max %,d ms"
                      + " (%.1f); max held / ceil(M/N): worst %.2f (%s), 1.00 in %d of %d",
                  kind,
                  list.size(),
                  median(millis),
                  (double) median(millis) / renewMillis,
                  max(millis),
                  (double) max(millis) / renewMillis,
                  worst.ratio(),
                  worst.spread().shardsPerReplica(),
                  even,
                  list.size()));
        });
    return out;
  }

  static long median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static long max(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).max().orElseThrow();
  }
}
