package io.sf2loki.source.eventlogfile;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One large {@code LogFile} (default ≈ 500 MB of CSV) streamed from the fake Salesforce through the
 * real EventLogFile source (download into the spool, CSV parse, canonical JSON, one entry per row),
 * rows counted and dropped by the context. Prints rows/s, bytes and the heap peak. Not a test: run
 * in its own JVM with a small heap, {@code just bench-elf} ({@code -Xmx256m}); the argument is the
 * row count.
 */
public final class ElfLargeFileBenchmark {

  private ElfLargeFileBenchmark() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_520_000; // ≈ 500 MB
    try (ElfFixture fx = new ElfFixture()) {
      var spec = fx.file("Login", 30, rows);
      AtomicLong peak = new AtomicLong();
      AtomicLong peakAfterGc = new AtomicLong();
      Thread sampler = heapSampler(peak, peakAfterGc);
      RecordingSourceContext ctx = new RecordingSourceContext().discardEntries();
      long start = System.nanoTime();
      fx.source(ElfFixture.config(List.of("Login"))).cycleOnce(ctx);
      double secs = (System.nanoTime() - start) / 1e9;
      sampler.interrupt();
      sampler.join();
      double bytes = fx.counter("sf2loki_eventlogfile_download_bytes", "event_type", "Login");
      System.out.printf(
          Locale.ROOT,
          "RESULT eventlogfile: %d of %d rows, %.0f MB of CSV in %.1f s = %.0f rows/s (%.1f MB/s);"
              + " peak heap used %d MiB, largest post-GC %d MiB, -Xmx %d MiB%n",
          ctx.rowCount(),
          spec.rows(),
          bytes / 1e6,
          secs,
          ctx.rowCount() / secs,
          bytes / 1e6 / secs,
          peak.get() >> 20,
          peakAfterGc.get() >> 20,
          ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax() >> 20);
    }
  }

  private static Thread heapSampler(AtomicLong peak, AtomicLong peakAfterGc) {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
    Thread t =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                peak.accumulateAndGet(used, Math::max);
                peakAfterGc.accumulateAndGet(afterLastGc(), Math::max);
                try {
                  Thread.sleep(2);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "heap-sampler");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Heap in use right after the most recent collection (the retained set then). */
  private static long afterLastGc() {
    long total = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
        total += pool.getCollectionUsage().getUsed();
      }
    }
    return total;
  }
}
