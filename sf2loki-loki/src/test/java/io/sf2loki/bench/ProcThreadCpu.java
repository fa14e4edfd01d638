package io.sf2loki.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU per thread of any process, read from Linux's {@code /proc/<pid>/task}: unlike {@code
 * ThreadMXBean} it sees the JVM's own threads (GC workers, JIT compilers, the VM thread), which is
 * where a good part of a benchmark's CPU goes. Linux keeps only the first 15 characters of a
 * thread's name, so Java threads with long names are better named by {@code ThreadMXBean} ({@link
 * RunMonitor} does so for this process). Empty where {@code /proc} is missing.
 */
final class ProcThreadCpu {

  /** Clock ticks per second as {@code /proc} reports them (USER_HZ, 100 on every Linux build). */
  private static final double TICKS_PER_SECOND = 100.0;

  /** The kernel's limit on a thread name: 16 bytes with the terminating NUL. */
  static final int NAME_LIMIT = 15;

  private ProcThreadCpu() {}

  /** One thread's name as the kernel keeps it and its user and system CPU seconds. */
  record ThreadCpu(String name, double user, double system) {

    /** The name up to a trailing number, so the two GC workers count as one group. */
    String group() {
      return group(name);
    }

    static String group(String name) {
      return name.replaceAll("[-#]?\\d+$", "").trim().replace(' ', '_');
    }
  }

  /** Every live thread of {@code pid} by thread id. */
  static Map<Long, ThreadCpu> threads(long pid) {
    Map<Long, ThreadCpu> out = new HashMap<>();
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (pid < 0 || !Files.isDirectory(tasks)) {
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

  /**
   * CPU each thread of {@code after} used since {@code before} (a thread new since then counts in
   * full), by thread id, so a thread that ended in between subtracts nothing from a namesake.
   */
  static Map<Long, ThreadCpu> delta(Map<Long, ThreadCpu> before, Map<Long, ThreadCpu> after) {
    Map<Long, ThreadCpu> out = new HashMap<>();
    after.forEach(
        (tid, now) -> {
          ThreadCpu was = before.get(tid);
          out.put(
              tid,
              was == null
                  ? now
                  : new ThreadCpu(
                      now.name(), now.user() - was.user(), now.system() - was.system()));
        });
    return out;
  }

  /** Sums threads into their groups: group name to {user, system} seconds. */
  static Map<String, double[]> byGroup(Map<Long, ThreadCpu> threads) {
    Map<String, double[]> out = new TreeMap<>();
    threads.values().forEach(t -> add(out, t.group(), t.user(), t.system()));
    return out;
  }

  static void add(Map<String, double[]> groups, String group, double user, double system) {
    double[] sum = groups.computeIfAbsent(group, g -> new double[2]);
    sum[0] += user;
    sum[1] += system;
  }

  /** " GC_Thread=1.2+0.3" (user+system seconds) for groups above {@code min} seconds. */
  static String format(Map<String, double[]> cpu, double min) {
    StringBuilder s = new StringBuilder();
    cpu.forEach(
        (name, v) -> {
          if (v[0] + v[1] >= min) {
            s.append(String.format(Locale.ROOT, " %s=%.1f+%.1f", name, v[0], v[1]));
          }
        });
    return s.toString();
  }

  private static ThreadCpu readTask(Path task) {
    try {
      // Latin-1 maps every byte to a char, so a non-ASCII thread name cannot fail the read.
      String stat = Files.readString(task.resolve("stat"), StandardCharsets.ISO_8859_1);
      // "tid (comm) state ppid ..." where comm may hold spaces and parentheses: split at the last
      // ')'
      int close = stat.lastIndexOf(')');
      String comm = stat.substring(stat.indexOf('(') + 1, close);
      String[] f = stat.substring(close + 2).split(" ");
      // After the comm: field 0 is the state, utime and stime are fields 11 and 12.
      double user = Long.parseLong(f[11]) / TICKS_PER_SECOND;
      double system = Long.parseLong(f[12]) / TICKS_PER_SECOND;
      return new ThreadCpu(comm, user, system);
    } catch (IOException | RuntimeException e) {
      return null; // the thread ended between listing and reading
    }
  }
}
