package io.sf2loki.daemon.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.ListIterator;
import java.util.SplittableRandom;

/**
 * One soak's settings.
 *
 * @param chaos the chaos time of the whole soak, shared equally by the stores
 * @param seed fixes every fault schedule
 * @param stores the stores to run, one after the other
 * @param ttl the lease ttl of the pair
 * @param renewInterval the lease renew interval of the pair
 * @param daemonJar the shaded daemon jar the replicas run
 * @param outputDir where configurations, logs and the report go
 */
record SoakOptions(
    Duration chaos,
    long seed,
    List<SoakStore.Kind> stores,
    Duration ttl,
    Duration renewInterval,
    Path daemonJar,
    Path outputDir) {

  static final String USAGE =
      """
      usage: SoakMain [--minutes N | --seconds N] [--seed N] [--stores file,s3] [--jar PATH]
                      [--out DIR]
        the chaos time is shared by the stores; the seed fixes the fault schedules""";

  SoakOptions {
    stores = List.copyOf(stores);
    if (stores.isEmpty()) {
      throw new IllegalArgumentException("--stores names no store");
    }
    if (chaos.isNegative() || chaos.isZero()) {
      throw new IllegalArgumentException("the chaos time must be positive");
    }
  }

  /** The chaos time of one store's run. */
  Duration chaosPerStore() {
    return chaos.dividedBy(stores.size());
  }

  /** The fault schedules' seed of {@code store}'s run. */
  long seedOf(SoakStore.Kind store) {
    return seed + 1_000_003L * store.ordinal();
  }

  /**
   * Parses the command line; unset: 3 minutes, a random seed, both stores, ttl 3s, renew 1s, the
   * jar in {@code target/}, output in {@code target/soak}.
   *
   * @throws IllegalArgumentException naming the bad argument
   */
  static SoakOptions parse(List<String> args) {
    Duration chaos = Duration.ofMinutes(3);
    long seed = new SplittableRandom().nextLong() >>> 1;
    List<SoakStore.Kind> stores = List.of(SoakStore.Kind.FILE, SoakStore.Kind.S3);
    Path jar = Path.of("target", "sf2loki-daemon.jar");
    Path out = Path.of("target", "soak");
    ListIterator<String> it = args.listIterator();
    while (it.hasNext()) {
      String name = it.next();
      String value = it.hasNext() ? it.next() : null;
      if (value == null) {
        throw new IllegalArgumentException(name + " needs a value");
      }
      switch (name) {
        case "--minutes" -> chaos = Duration.ofMinutes(number(name, value));
        case "--seconds" -> chaos = Duration.ofSeconds(number(name, value));
        case "--seed" -> seed = number(name, value);
        case "--stores" ->
            stores = Arrays.stream(value.split(",")).map(SoakStore.Kind::parse).toList();
        case "--jar" -> jar = Path.of(value);
        case "--out" -> out = Path.of(value);
        default -> throw new IllegalArgumentException("unknown option " + name);
      }
    }
    return new SoakOptions(
        chaos, seed, stores, Duration.ofSeconds(3), Duration.ofSeconds(1), jar, out);
  }

  private static long number(String name, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number (got " + value + ")", e);
    }
  }
}
