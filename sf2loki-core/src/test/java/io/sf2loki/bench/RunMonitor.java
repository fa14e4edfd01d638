package io.sf2loki.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches a run from a daemon thread: the peak of heap in use (sampled every 2 ms, so the true peak
 * is at most one sample's allocation higher), the largest live heap after a collection (the
 * retained set, from the pools' collection usage), process CPU, and CPU per thread group (threads
 * grouped by name up to the first digit, so the lane worker, the sources, the receiver and GC show
 * separately).
 */
final class RunMonitor implements AutoCloseable {

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final Map<Long, Long> cpuByThread = new ConcurrentHashMap<>();
  private final Map<Long, Long> cpuAtStartByThread = new ConcurrentHashMap<>();
  private final Map<Long, String> names = new ConcurrentHashMap<>();
  private final Thread sampler;
  private final long cpuAtStart;
  private volatile boolean running = true;
  private volatile long peakUsed;
  private volatile long peakAfterGc;

  RunMonitor() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
    cpuAtStart = os.getProcessCpuTime();
    for (long id : threads.getAllThreadIds()) {
      cpuAtStartByThread.put(id, Math.max(0, threads.getThreadCpuTime(id)));
    }
    sampler = new Thread(this::sample, "bench-monitor");
    sampler.setDaemon(true);
    sampler.start();
  }

  private void sample() {
    long n = 0;
    while (running) {
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      peakUsed = Math.max(peakUsed, used);
      peakAfterGc = Math.max(peakAfterGc, afterLastGc());
      if (n++ % 50 == 0) {
        sampleThreads();
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void sampleThreads() {
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null) {
        long cpu = threads.getThreadCpuTime(info.getThreadId());
        if (cpu > 0) {
          cpuByThread.put(info.getThreadId(), cpu);
          names.put(info.getThreadId(), info.getThreadName().replaceAll("[-#]?\\d+$", ""));
        }
      }
    }
  }

  /** Peak heap in use, bytes. */
  long peakUsed() {
    return peakUsed;
  }

  /** The largest heap in use right after a collection, bytes (the retained set). */
  long peakAfterGc() {
    return peakAfterGc;
  }

  private static long afterLastGc() {
    long total = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
        total += pool.getCollectionUsage().getUsed();
      }
    }
    return total;
  }

  /** CPU seconds this process used since the monitor started. */
  double processCpuSeconds() {
    return (os.getProcessCpuTime() - cpuAtStart) / 1e9;
  }

  /** CPU seconds per thread group (JIT and GC threads are not Java threads; see process CPU). */
  Map<String, Double> cpuByGroup() {
    sampleThreads();
    Map<String, Double> out = new TreeMap<>();
    cpuByThread.forEach(
        (id, cpu) ->
            out.merge(
                names.get(id), (cpu - cpuAtStartByThread.getOrDefault(id, 0L)) / 1e9, Double::sum));
    return out;
  }

  @Override
  public void close() {
    running = false;
    try {
      sampler.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
