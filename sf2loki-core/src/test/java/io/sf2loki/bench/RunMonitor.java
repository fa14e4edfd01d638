package io.sf2loki.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Watches a run cheaply: the peak of heap in use and the largest live heap after a collection come
 * from the collector's notifications (heap in use just before a collection is the peak of the cycle
 * it ends, exactly), process CPU from the OS bean, and CPU per thread group, JIT and GC threads
 * included, from {@link ProcThreadCpu} read every 250 ms. (It used to poll the heap every 2 ms from
 * a thread that cost 5% of a core.)
 */
final class RunMonitor implements AutoCloseable {

  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final long cpuAtStart = os.getProcessCpuTime();
  private final long pid = ProcessHandle.current().pid();
  private final Map<String, double[]> threadsAtStart = ProcThreadCpu.snapshot(pid);
  // Threads seen during the run, by id, as last read: a pipeline's threads end with the run, so
  // they are read every 250 ms and kept after they are gone (losing at most their last 250 ms).
  private final Map<Long, ProcThreadCpu.ThreadCpu> lastSeen = new ConcurrentHashMap<>();
  private final Thread threadReader = new Thread(this::readThreads, "bench-monitor");
  private volatile boolean running = true;
  private final Set<String> heapPools = new HashSet<>();
  private final NotificationListener listener = this::onGc;
  private volatile long peakUsed;
  private volatile long peakAfterGc;

  RunMonitor() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPools.add(pool.getName());
      }
    }
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
    }
    peakUsed = heapUsedNow();
    threadReader.setDaemon(true);
    threadReader.start();
  }

  private void readThreads() {
    while (running) {
      lastSeen.putAll(ProcThreadCpu.threads(pid));
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void onGc(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo();
    peakUsed = Math.max(peakUsed, heapSum(info.getMemoryUsageBeforeGc()));
    peakAfterGc = Math.max(peakAfterGc, heapSum(info.getMemoryUsageAfterGc()));
  }

  private long heapSum(Map<String, MemoryUsage> usage) {
    long sum = 0;
    for (Map.Entry<String, MemoryUsage> e : usage.entrySet()) {
      if (heapPools.contains(e.getKey())) {
        sum += e.getValue().getUsed();
      }
    }
    return sum;
  }

  private static long heapUsedNow() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Peak heap in use, bytes. */
  long peakUsed() {
    return peakUsed;
  }

  /** The largest heap in use right after a collection, bytes (the retained set). */
  long peakAfterGc() {
    return peakAfterGc;
  }

  /** CPU seconds this process used since the monitor started. */
  double processCpuSeconds() {
    return (os.getProcessCpuTime() - cpuAtStart) / 1e9;
  }

  /** {user, system} CPU seconds per thread group since the monitor started. */
  Map<String, double[]> cpuByGroup() {
    return ProcThreadCpu.delta(threadsAtStart, ProcThreadCpu.byGroup(lastSeen));
  }

  @Override
  public void close() {
    running = false;
    threadReader.interrupt();
    try {
      threadReader.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    lastSeen.putAll(ProcThreadCpu.threads(pid));
    peakUsed = Math.max(peakUsed, heapUsedNow());
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      try {
        ((NotificationEmitter) gc).removeNotificationListener(listener);
      } catch (javax.management.ListenerNotFoundException e) {
        // never added: nothing to remove
      }
    }
  }
}
