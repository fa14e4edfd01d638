package io.sf2loki.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU per thread group of any process, read from Linux's {@code /proc/<pid>/task}: unlike {@code
 * ThreadMXBean} it sees the JVM's own threads (GC workers, JIT compilers, the VM thread), which is
 * where a good part of a benchmark's CPU goes. Threads are grouped by name up to a trailing number,
 * so the two GC workers count as one {@code GC Thread}. Empty where {@code /proc} is missing.
 */
final class ProcThreadCpu {

  /** Clock ticks per second as {@code /proc} reports them (USER_HZ, 100 on every Linux build). */
  private static final double TICKS_PER_SECOND = 100.0;

  private ProcThreadCpu() {}

  /** One thread's group name and {user, system} CPU seconds. */
  record ThreadCpu(String group, double user, double system) {}

  /** Thread group name to {user, system} CPU seconds, for the threads alive now. */
  static Map<String, double[]> snapshot(long pid) {
    return byGroup(threads(pid));
  }

  /** Every live thread of {@code pid} by thread id. */
  static Map<Long, ThreadCpu> threads(long pid) {
    Map<Long, ThreadCpu> out = new java.util.HashMap<>();
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (!Files.isDirectory(tasks)) {
      return out;
    }
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
      for (Path task : dir) {
        ThreadCpu t = readTask(task);
        if (t != null) {
          out.put(Long.parseLong(task.getFileName().toString()), t);
        }
      }
    } catch (IOException e) {
      // the process ended while we read it: report what was read
    }
    return out;
  }

  /** Sums threads into their groups. */
  static Map<String, double[]> byGroup(Map<Long, ThreadCpu> threads) {
    Map<String, double[]> out = new TreeMap<>();
    for (ThreadCpu t : threads.values()) {
      double[] sum = out.computeIfAbsent(t.group(), g -> new double[2]);
      sum[0] += t.user();
      sum[1] += t.system();
    }
    return out;
  }

  /** {@code after - before} per group (threads that ended in between are lost, as in top). */
  static Map<String, double[]> delta(Map<String, double[]> before, Map<String, double[]> after) {
    Map<String, double[]> out = new TreeMap<>();
    after.forEach(
        (name, cpu) -> {
          double[] was = before.getOrDefault(name, new double[2]);
          out.put(name, new double[] {cpu[0] - was[0], cpu[1] - was[1]});
        });
    return out;
  }

  /** " GC_Thread=1.2+0.3" (user+system seconds) for groups above {@code min} seconds. */
  static String format(Map<String, double[]> cpu, double min) {
    StringBuilder s = new StringBuilder();
    cpu.forEach(
        (name, v) -> {
          if (v[0] + v[1] >= min) {
            s.append(String.format(java.util.Locale.ROOT, " %s=%.1f+%.1f", name, v[0], v[1]));
          }
        });
    return s.toString();
  }

  private static ThreadCpu readTask(Path task) {
    try {
      String stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
      // "tid (comm) state ppid ..." where comm may hold spaces and parentheses: split at the last
      // ')'
      int close = stat.lastIndexOf(')');
      String comm = stat.substring(stat.indexOf('(') + 1, close);
      String[] f = stat.substring(close + 2).split(" ");
      // After the comm: field 0 is the state, utime and stime are fields 11 and 12.
      double user = Long.parseLong(f[11]) / TICKS_PER_SECOND;
      double system = Long.parseLong(f[12]) / TICKS_PER_SECOND;
      String group = comm.replaceAll("[-#\\d]+$", "").trim().replace(' ', '_');
      return new ThreadCpu(group, user, system);
    } catch (IOException | RuntimeException e) {
      return null; // the thread ended between listing and reading
    }
  }
}
