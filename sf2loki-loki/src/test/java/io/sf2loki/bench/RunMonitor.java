package io.sf2loki.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Watches a run cheaply: the peak of heap in use and the largest live heap after a collection come
 * from the collector's notifications (heap in use just before a collection is the peak of the cycle
 * it ends, exactly), process CPU from the OS bean, and CPU per thread group read every 250 ms: Java
 * threads by their full names from {@link ThreadMXBean}, the JVM's own threads (JIT, GC, VM) from
 * {@link ProcThreadCpu}. (It used to poll the heap every 2 ms from a thread that cost 5% of a core,
 * and saw Java threads only.)
 */
final class RunMonitor implements AutoCloseable {

  /** A Java thread as last read: its name and CPU nanoseconds, total and user. */
  private record JavaThread(String name, long cpu, long user) {}

  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final long cpuAtStart = os.getProcessCpuTime();
  private final long pid = ProcessHandle.current().pid();
  // Threads are read every 250 ms and kept after they end (a pipeline's threads end with the run),
  // losing at most their last 250 ms; deltas are per thread, against the value at the start.
  private final Map<Long, ProcThreadCpu.ThreadCpu> nativeAtStart = ProcThreadCpu.threads(pid);
  private final Map<Long, ProcThreadCpu.ThreadCpu> nativeLastSeen = new ConcurrentHashMap<>();
  private final Map<Long, JavaThread> javaAtStart = new HashMap<>();
  private final Map<Long, JavaThread> javaLastSeen = new ConcurrentHashMap<>();
  private final Set<String> javaNamesAsKernelKeepsThem = ConcurrentHashMap.newKeySet();
  private final Thread reader = new Thread(this::readThreads, "bench-monitor");
  private final Set<String> heapPools = new HashSet<>();
  private final NotificationListener listener = this::onGc;
  private final AtomicLong peakUsed = new AtomicLong();
  private final AtomicLong peakAfterGc = new AtomicLong();
  private volatile boolean running = true;

  RunMonitor() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPools.add(pool.getName());
      }
    }
    javaAtStart.putAll(javaThreads());
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
    }
    peakUsed.set(heapUsedNow());
    reader.setDaemon(true);
    reader.start();
  }

  private void readThreads() {
    while (running) {
      readOnce();
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void readOnce() {
    javaLastSeen.putAll(javaThreads());
    nativeLastSeen.putAll(ProcThreadCpu.threads(pid));
  }

  private Map<Long, JavaThread> javaThreads() {
    Map<Long, JavaThread> out = new HashMap<>();
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null) {
        continue; // ended since the ids were listed
      }
      long id = info.getThreadId();
      long cpu = threads.getThreadCpuTime(id);
      long user = threads.getThreadUserTime(id);
      if (cpu >= 0 && user >= 0) {
        String name = info.getThreadName();
        out.put(id, new JavaThread(name, cpu, user));
        javaNamesAsKernelKeepsThem.add(
            name.substring(0, Math.min(name.length(), ProcThreadCpu.NAME_LIMIT)));
      }
    }
    return out;
  }

  private void onGc(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo();
    peakUsed.accumulateAndGet(heapSum(info.getMemoryUsageBeforeGc()), Math::max);
    peakAfterGc.accumulateAndGet(heapSum(info.getMemoryUsageAfterGc()), Math::max);
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
    return peakUsed.get();
  }

  /** The largest heap in use right after a collection, bytes (the retained set). */
  long peakAfterGc() {
    return peakAfterGc.get();
  }

  /** CPU seconds this process used since the monitor started. */
  double processCpuSeconds() {
    return (os.getProcessCpuTime() - cpuAtStart) / 1e9;
  }

  /** {user, system} CPU seconds per thread group since the monitor started. */
  Map<String, double[]> cpuByGroup() {
    Map<String, double[]> out = new TreeMap<>();
    javaLastSeen.forEach(
        (id, now) -> {
          JavaThread was = javaAtStart.getOrDefault(id, new JavaThread(now.name(), 0, 0));
          double user = (now.user() - was.user()) / 1e9;
          double total = (now.cpu() - was.cpu()) / 1e9;
          ProcThreadCpu.add(out, ProcThreadCpu.ThreadCpu.group(now.name()), user, total - user);
        });
    ProcThreadCpu.delta(nativeAtStart, nativeLastSeen)
        .values()
        .forEach(
            t -> {
              if (!javaNamesAsKernelKeepsThem.contains(t.name())) {
                ProcThreadCpu.add(out, t.group(), t.user(), t.system());
              }
            });
    return out;
  }

  @Override
  public void close() {
    running = false;
    reader.interrupt();
    try {
      reader.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    readOnce();
    peakUsed.accumulateAndGet(heapUsedNow(), Math::max);
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      try {
        ((NotificationEmitter) gc).removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // never added: nothing to remove
      }
    }
  }
}
