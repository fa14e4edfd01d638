package io.sf2loki.daemon.bench;

import static io.sf2loki.daemon.bench.BenchConsole.load;
import static io.sf2loki.daemon.bench.BenchConsole.result;
import static io.sf2loki.daemon.bench.BenchConsole.say;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.sf2loki.config.Durations;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.pubsub.FakePubSub;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.LoggerFactory;

/**
 * Pub/Sub freshness and ceiling, each with its floor. Not a test; run with {@code just bench-pubsub
 * [key=value ...]}:
 *
 * <ul>
 *   <li>{@code mode=all} {@code freshness} | {@code ceiling} | {@code all}
 *   <li>{@code rate=1000} events/s published during the freshness run; {@code warmup=10} seconds of
 *       them not measured, then {@code seconds=30} measured
 *   <li>{@code freshness_elf=true}: false measures freshness without the drain, for comparison
 *   <li>{@code floor_beside=true}: the floor measured at the same time as sf2loki, a raw subscriber
 *       of the same topic pushing to the same fake Loki during the same drain; {@code
 *       floor_alone=true}: the floor measured before, on fakes of its own, without the drain
 *   <li>{@code elf_hours=24}, {@code elf_rows=20000}: the EventLogFile backlog (API, URI and
 *       ReportExport files per hour) draining in the bulk lane during the freshness run
 *   <li>{@code ceiling_seconds=20} measured after a warm-up of {@code ceiling_warmup=10} seconds
 *       for the raw subscriber and {@code engine_warmup=30} for sf2loki (its JIT compiles far more
 *       code: after 10 s it was still compiling during the measured window), publishing as fast as
 *       at most {@code max_lead=20000} events ahead of the consumer allows; {@code
 *       ceiling_elf=false}, up to {@code capacity=20000000} events in all. The fake keeps the last
 *       {@code ceiling_retention=10s} of them (Salesforce keeps 72 hours): at bare loopback's rates
 *       a 2 GB heap holds no more (the consumer is at most {@code max_lead} events behind)
 *   <li>{@code rtt=0s}: the round trip of a link between the fake Pub/Sub and every subscriber of
 *       it, floors and sf2loki alike (e.g. {@code rtt=5ms}); none, bare loopback, by default
 * </ul>
 *
 * Any other {@code key=value} whose key has a dot is configuration appended to the defaults, e.g.
 * {@code sink.loki.batch.flush_interval=200ms}. Freshness is the time from just before {@code
 * FakePubSub.publishEncoded} (the event already encoded) to the fake Loki storing the entry (just
 * before its 204); the floors are a raw gRPC subscriber of the same fake (delivery), and the same
 * subscriber pushing each response at once, unbatched, to a fake Loki (delivery + one push): alone,
 * before sf2loki's run, and beside it, during its run.
 */
public final class PubSubFreshnessBenchmark {

  private static final Duration SALESFORCE_RETENTION = Duration.ofHours(72);

  private final Map<String, String> o;
  private final StringBuilder config = new StringBuilder();

  private PubSubFreshnessBenchmark(Map<String, String> options) {
    this.o = options;
    options.forEach(
        (k, v) -> {
          if (k.contains(".")) {
            config.append(k).append(" = ").append(v).append('\n');
          }
        });
  }

  public static void main(String[] args) throws Exception {
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
    Map<String, String> options = BenchConsole.options(args);
    PubSubFreshnessBenchmark bench = new PubSubFreshnessBenchmark(options);
    String mode = options.getOrDefault("mode", "all");
    BenchConsole.header("bench-pubsub", options);
    if (!mode.equals("ceiling")) {
      if (Boolean.parseBoolean(options.getOrDefault("floor_alone", "true"))) {
        bench.freshnessFloor();
      }
      bench.freshness();
    }
    if (!mode.equals("freshness")) {
      bench.ceilingFloor();
      bench.ceiling();
    }
    say("done, load " + load());
    System.exit(0); // the fakes' and gRPC's pools are not all daemon threads
  }

  private Duration rtt() {
    return Durations.parse(o.getOrDefault("rtt", "0s"));
  }

  private int integer(String key, int defaultValue) {
    return Integer.parseInt(o.getOrDefault(key, Integer.toString(defaultValue)));
  }

  private void freshnessFloor() throws Exception {
    int rate = integer("rate", 1000);
    int warmup = integer("warmup", 10);
    int total = rate * (warmup + integer("seconds", 30));
    FreshnessRecorder delivered = new FreshnessRecorder(total, (long) rate * warmup);
    FreshnessRecorder pushed = delivered.downstream();
    try (FakePubSub pubsub = PubSubBenchWorld.fakePubSub(rtt(), SALESFORCE_RETENTION).start();
        FakeLoki loki =
            FakeLoki.builder()
                .recording(FakeLoki.PushRecording.HEADERS_ONLY)
                .keepEntries(false)
                .onStored(streams -> pushed.arrived(streams, System.nanoTime()))
                .start();
        RawSubscriber floor =
            new RawSubscriber(
                pubsub.target(), pubsub.orgId(), FakePubSub.LOGIN, delivered, Optional.of(loki))) {
      await("the floor's stream", 30, () -> pubsub.liveStreams() == 1);
      try (PacedPublisher publisher =
          PacedPublisher.atRate(pubsub, FakePubSub.LOGIN, delivered, rate, total)) {
        if (!within(60 + total / rate, () -> pushed.arrivedCount() == total)) {
          say("  not all of the floor's events arrived: " + publisher.published() + " published");
        }
      }
      floor.failure().ifPresent(f -> say("floor failed: " + f));
    }
    result("freshness floor: delivery", delivered, total);
    result("freshness floor: delivery + one push", pushed, total);
  }

  private void freshness() throws Exception {
    int rate = integer("rate", 1000);
    int warmup = integer("warmup", 10);
    int seconds = integer("seconds", 30);
    int total = rate * (warmup + seconds);
    PubSubBenchWorld.Backlog backlog =
        new PubSubBenchWorld.Backlog(integer("elf_hours", 24), integer("elf_rows", 20_000));
    boolean elf = Boolean.parseBoolean(o.getOrDefault("freshness_elf", "true"));
    FreshnessRecorder recorder = new FreshnessRecorder(total, (long) rate * warmup);
    boolean beside = Boolean.parseBoolean(o.getOrDefault("floor_beside", "true"));
    FreshnessRecorder floorDelivered = recorder.downstream();
    FreshnessRecorder floorPushed = recorder.downstream();
    try (PubSubBenchWorld world = new PubSubBenchWorld(recorder, rtt(), SALESFORCE_RETENTION);
        RawSubscriber floor = beside ? besideFloor(world, floorDelivered, floorPushed) : null) {
      if (elf) {
        world.addBacklog(backlog);
      }
      world.startEngine(elf, config.toString());
      await(
          "the drain and the stream",
          120,
          () -> streaming(world, beside ? 2 : 1) && (!elf || world.bulkArrived() > 0));
      long bulkAtStart;
      long bulkAtEnd;
      long measuredNanos;
      try (PacedPublisher publisher =
          PacedPublisher.atRate(world.pubsub, FakePubSub.LOGIN, recorder, rate, total)) {
        await("the warm-up", 60 + warmup, () -> publisher.published() >= (long) rate * warmup);
        bulkAtStart = world.bulkArrived();
        long start = System.nanoTime();
        await("the measured events", 60 + seconds, () -> publisher.published() == total);
        measuredNanos = System.nanoTime() - start;
        bulkAtEnd = world.bulkArrived();
        if (!within(60, () -> recorder.arrivedCount() == total)) {
          say("  not all events arrived within 60 s of the last publish");
        }
        if (beside && !within(60, () -> floorPushed.arrivedCount() == total)) {
          say("  not all of the floor's events arrived within 60 s of the last publish");
        }
      }
      if (floor != null) {
        floor.failure().ifPresent(f -> say("floor beside failed: " + f));
      }
      double bulkRate = (bulkAtEnd - bulkAtStart) / (measuredNanos / 1e9);
      if (elf) {
        say(
            String.format(
                Locale.ROOT,
                "  bulk lane meanwhile: %,d EventLogFile entries stored (%,.0f/s) of a %,d-row backlog;"
                    + " %s",
                bulkAtEnd - bulkAtStart,
                bulkRate,
                backlog.totalRows(),
                bulkAtEnd < backlog.totalRows()
                    ? "the drain ran through the whole measured window"
                    : "THE DRAIN ENDED INSIDE THE WINDOW: make the backlog larger"));
      }
    }
    String during = elf ? ", during the ELF drain" : ", no drain";
    if (beside) {
      result("freshness floor beside sf2loki: delivery" + during, floorDelivered, total);
      result("freshness floor beside sf2loki: delivery + one push" + during, floorPushed, total);
    }
    result(
        "freshness sf2loki (pubsub"
            + (elf ? " + ELF drain" : " alone")
            + ", "
            + configLabel()
            + ")",
        recorder,
        total);
  }

  /**
   * The floor in sf2loki's own conditions: a raw subscriber of the same topic of the same fake, at
   * the same time, pushing to the same fake Loki, in the same JVM (its garbage collections) while
   * the same drain runs. The floor alone ({@link #freshnessFloor}) pays none of the drain's cost.
   */
  private static RawSubscriber besideFloor(
      PubSubBenchWorld world, FreshnessRecorder delivered, FreshnessRecorder pushed) {
    world.floorInto(pushed);
    return new RawSubscriber(
        world.pubsub.target(),
        world.pubsub.orgId(),
        FakePubSub.LOGIN,
        delivered,
        Optional.of(world.loki));
  }

  private void ceilingFloor() throws Exception {
    FreshnessRecorder delivered = new FreshnessRecorder(capacity(), Long.MAX_VALUE);
    try (FakePubSub pubsub = PubSubBenchWorld.fakePubSub(rtt(), ceilingRetention()).start();
        RawSubscriber floor =
            new RawSubscriber(
                pubsub.target(), pubsub.orgId(), FakePubSub.LOGIN, delivered, Optional.empty())) {
      await("the floor's stream", 30, () -> pubsub.liveStreams() == 1);
      sustained(
          "ceiling floor: raw subscriber (delivery)",
          pubsub,
          delivered,
          () -> 0L,
          () -> 0L,
          integer("ceiling_warmup", 10));
      floor.failure().ifPresent(f -> say("floor failed: " + f));
    }
  }

  private void ceiling() throws Exception {
    boolean elf = Boolean.parseBoolean(o.getOrDefault("ceiling_elf", "false"));
    FreshnessRecorder recorder = new FreshnessRecorder(capacity(), Long.MAX_VALUE);
    try (PubSubBenchWorld world = new PubSubBenchWorld(recorder, rtt(), ceilingRetention())) {
      if (elf) {
        world.addBacklog(
            new PubSubBenchWorld.Backlog(integer("elf_hours", 24), integer("elf_rows", 20_000)));
      }
      world.startEngine(elf, config.toString());
      await("the stream", 120, () -> streaming(world));
      sustained(
          "ceiling sf2loki (one subscription" + (elf ? " + ELF drain" : "") + ")",
          world.pubsub,
          recorder,
          world::bulkArrived,
          world::pushes,
          integer("engine_warmup", 30));
    }
  }

  /** Publishes flat out; the arrival rate over the measured window, and per second within it. */
  private void sustained(
      String name,
      FakePubSub pubsub,
      FreshnessRecorder recorder,
      LongSupplier bulk,
      LongSupplier pushes,
      int warmup)
      throws Exception {
    int seconds = integer("ceiling_seconds", 20);
    try (PacedPublisher publisher =
        PacedPublisher.flatOut(pubsub, FakePubSub.LOGIN, recorder, integer("max_lead", 20_000))) {
      TimeUnit.SECONDS.sleep(warmup);
      long a0 = recorder.arrivedCount();
      long b0 = bulk.getAsLong();
      long p0 = pushes.getAsLong();
      long t0 = System.nanoTime();
      long min = Long.MAX_VALUE;
      long max = 0;
      long previous = a0;
      for (int s = 0; s < seconds; s++) {
        TimeUnit.SECONDS.sleep(1);
        long now = recorder.arrivedCount();
        min = Math.min(min, now - previous);
        max = Math.max(max, now - previous);
        previous = now;
      }
      double elapsed = (System.nanoTime() - t0) / 1e9;
      long arrived = recorder.arrivedCount() - a0;
      long pushed = pushes.getAsLong() - p0;
      say(
          String.format(
              Locale.ROOT,
              "RESULT %s: %,.0f events/s sustained over %.1f s (per second %,d..%,d),"
                  + " %,d published, %,d arrived, %,d repeats%s%s",
              name,
              arrived / elapsed,
              elapsed,
              min,
              max,
              publisher.published(),
              recorder.arrivedCount(),
              recorder.duplicates(),
              bulk.getAsLong() > b0
                  ? String.format(
                      Locale.ROOT, "; bulk %,.0f entries/s", (bulk.getAsLong() - b0) / elapsed)
                  : "",
              pushed > 0
                  ? String.format(
                      Locale.ROOT,
                      "; %,.0f pushes/s, %,.0f entries each",
                      pushed / elapsed,
                      (double) arrived / pushed)
                  : ""));
    }
  }

  private int capacity() {
    return integer("capacity", 20_000_000);
  }

  private Duration ceilingRetention() {
    return Durations.parse(o.getOrDefault("ceiling_retention", "10s"));
  }

  private String configLabel() {
    return config.length() == 0 ? "defaults" : config.toString().trim().replace('\n', ' ');
  }

  private static boolean streaming(PubSubBenchWorld world) {
    return streaming(world, 1);
  }

  private static boolean streaming(PubSubBenchWorld world, int streams) {
    return world.pubsub.liveStreams() >= streams && !world.engineEnded();
  }

  private static void await(String what, long seconds, BooleanSupplier done)
      throws InterruptedException {
    if (!within(seconds, done)) {
      throw new IllegalStateException("timed out after " + seconds + " s waiting for " + what);
    }
  }

  private static boolean within(long seconds, BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
    return true;
  }
}
