package io.sf2loki.deadline;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code sf2loki_file_io_stuck_threads{file}} gauge: one count per registry and {@code file}
 * tag, registered once and shared by every {@link BlockingIo} of that file in that registry (an
 * org's checkpoint document and the reads of the legacy document it inherits from both use {@code
 * file=state} in the org's registry), so the gauge is the sum of their abandoned calls instead of a
 * second registration that Micrometer ignores with a warning.
 */
final class StuckGauge {

  /** Weak keys: a registry nobody uses any more takes its counts with it. */
  private static final Map<MeterRegistry, Map<String, AtomicInteger>> COUNTS = new WeakHashMap<>();

  private StuckGauge() {}

  /** The shared count of {@code file}'s abandoned calls in {@code registry}, registered once. */
  static synchronized AtomicInteger of(MeterRegistry registry, String file) {
    return COUNTS
        .computeIfAbsent(registry, r -> new HashMap<>())
        .computeIfAbsent(file, f -> register(registry, f));
  }

  private static AtomicInteger register(MeterRegistry registry, String file) {
    AtomicInteger count = new AtomicInteger();
    Gauge.builder("sf2loki_file_io_stuck_threads", count, AtomicInteger::get)
        .description("file-system calls abandoned after their deadline that are still running")
        .tag("file", file)
        // Abandoned calls outlive a closed store; a weak reference would turn the gauge into NaN
        // once the store is collected while its stuck threads still run.
        .strongReference(true)
        .register(registry);
    return count;
  }
}
