package io.sf2loki.connect;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The bench's CPU budget on Linux: CPU lists checked against the online CPUs, {@code taskset} to
 * pin this JVM or prefix a child's command line, and each process's CPU time and each CPU's busy
 * share between two {@link Sample}s, from {@code /proc}, to show whether a pinned core was the
 * limit.
 */
final class BenchCpus {

  private static final Pattern LIST = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");

  /** USER_HZ: the unit of /proc's CPU times, 100 on every Linux the bench runs on. */
  private static final double TICKS_PER_SECOND = 100;

  private BenchCpus() {}

  /**
   * Option {@code key}'s CPU list, checked: the form {@code taskset -c} takes and CPUs that are
   * online, and {@code taskset} on the path.
   *
   * @throws IllegalArgumentException naming the option, the value and what is wrong
   */
  static String checked(String key, String cpus) {
    if (!LIST.matcher(cpus).matches()) {
      throw new IllegalArgumentException(
          key + "=" + cpus + ": not a CPU list such as 1, 0-1 or 0,2 (taskset -c's form)");
    }
    SortedSet<Integer> online = parse(read(Path.of("/sys/devices/system/cpu/online")).trim());
    SortedSet<Integer> wanted = parse(cpus);
    if (!online.containsAll(wanted)) {
      throw new IllegalArgumentException(
          key + "=" + cpus + ": CPUs " + wanted + " are not all online; online are " + online);
    }
    try {
      Process probe =
          new ProcessBuilder("taskset", "--version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (probe.waitFor() != 0) {
        throw new IllegalStateException("taskset --version exited with " + probe.exitValue());
      }
    } catch (IOException | InterruptedException | IllegalStateException e) {
      throw new IllegalArgumentException(
          key + "=" + cpus + " needs taskset (util-linux) on the PATH: " + e.getMessage(), e);
    }
    return cpus;
  }

  /**
   * Pins every thread of this JVM to {@code cpus}; threads started later inherit it. Call it before
   * the threads being measured start.
   */
  static void pinThisJvm(String cpus) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                "taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(
          "taskset could not pin the bench JVM to " + cpus + ": " + out);
    }
  }

  /** The prefix that starts a command on {@code cpus}. */
  static List<String> on(String cpus) {
    return List.of("taskset", "-c", cpus);
  }

  private static SortedSet<Integer> parse(String list) {
    SortedSet<Integer> out = new TreeSet<>();
    for (String range : list.split(",")) {
      String[] ends = range.split("-");
      int from = Integer.parseInt(ends[0]);
      int to = ends.length > 1 ? Integer.parseInt(ends[1]) : from;
      for (int cpu = from; cpu <= to; cpu++) {
        out.add(cpu);
      }
    }
    return out;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot read " + file + ": the bench's CPU options need Linux", e);
    }
  }

  /**
   * CPU times at one instant: each named process's (user + system), and each CPU's busy and total
   * time, whoever ran on it (the machine may be shared).
   */
  record Sample(
      long nanos,
      long callerCpuNanos,
      Map<String, Long> processTicks,
      Map<String, long[]> cpuTicks) {

    static Sample of(Map<String, Long> pids) {
      Map<String, Long> processes = new LinkedHashMap<>();
      pids.forEach((name, pid) -> processes.put(name, processTicks(pid)));
      Map<String, long[]> cpus = new LinkedHashMap<>();
      for (String line : read(Path.of("/proc/stat")).split("\n")) {
        if (line.matches("cpu\\d+ .*")) {
          String[] f = line.trim().split("\\s+");
          long total = 0;
          for (int i = 1; i < Math.min(f.length, 9); i++) { // user .. steal; guest is in user
            total += Long.parseLong(f[i]);
          }
          long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]); // idle, iowait
          cpus.put(f[0], new long[] {total - idle, total});
        }
      }
      long caller = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
      return new Sample(System.nanoTime(), caller, processes, cpus);
    }

    /** Fields 14 and 15 of /proc/pid/stat, after the command's parenthesised name. */
    private static long processTicks(long pid) {
      String stat = read(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * Since {@code before}, both taken on the same thread: each process's CPU time in cores (1.00:
     * one core all the time) and that thread's, each CPU's busy share, e.g. {@code cores: bench
     * 0.98, kafka 0.31, main thread 0.12; busy: cpu0 100%, cpu1 45%}.
     */
    String since(Sample before) {
      double seconds = (nanos - before.nanos) / 1e9;
      List<String> cores = new ArrayList<>();
      processTicks.forEach(
          (name, ticks) ->
              cores.add(
                  String.format(
                      Locale.ROOT,
                      "%s %.2f",
                      name,
                      (ticks - before.processTicks.get(name)) / TICKS_PER_SECOND / seconds)));
      List<String> busy = new ArrayList<>();
      cpuTicks.forEach(
          (cpu, ticks) -> {
            long[] was = before.cpuTicks.get(cpu);
            double share = (double) (ticks[0] - was[0]) / Math.max(1, ticks[1] - was[1]);
            busy.add(String.format(Locale.ROOT, "%s %.0f%%", cpu, share * 100));
          });
      // the calling thread: the bench's main thread, which runs the source rounds' counting
      // consumer
      cores.add(
          String.format(
              Locale.ROOT,
              "main thread %.2f",
              (callerCpuNanos - before.callerCpuNanos) / 1e9 / seconds));
      return "cores: " + String.join(", ", cores) + "; busy: " + String.join(", ", busy);
    }
  }
}
