package io.sf2loki.otlp;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The {@link OtlpEncodeBenchmark} operations timed by this thread's CPU clock instead of the wall
 * clock, so the figures hold on a shared, loaded machine; rounds interleave the candidates so drift
 * hits all alike (as sf2loki-loki's {@code EncodeCpuProbe}). Arguments: rounds (5), gzip level (1).
 * Run: see docs/performance.md.
 */
public final class OtlpEncodeCpuProbe {

  private OtlpEncodeCpuProbe() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    OtlpEncodeBenchmark b = new OtlpEncodeBenchmark();
    b.level = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    b.setUp();
    Map<String, Callable<byte[]>> ops = new LinkedHashMap<>();
    ops.put("floorProtobufGzip", b::floorProtobufGzip);
    ops.put("protobufGzip", b::protobufGzip);
    ops.put("jsonGzip", b::jsonGzip);
    double mib = OtlpEncodeBenchmark.ENTRIES * 1024.0 / (1 << 20);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, double[]> best = new LinkedHashMap<>();
    for (int round = 0; round <= rounds; round++) {
      for (Map.Entry<String, Callable<byte[]>> op : ops.entrySet()) {
        int n = 20;
        long sink = 0;
        long cpu0 = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
          sink += op.getValue().call().length;
        }
        double us = (threads.getCurrentThreadCpuTime() - cpu0) / 1e3 / n;
        if (sink == 0) {
          throw new IllegalStateException("empty output");
        }
        if (round > 0) { // round 0 warms up
          double[] range = best.computeIfAbsent(op.getKey(), k -> new double[] {1e18, 0});
          range[0] = Math.min(range[0], us);
          range[1] = Math.max(range[1], us);
        }
      }
    }
    double floor = best.get("floorProtobufGzip")[0];
    System.out.printf(
        Locale.ROOT,
        "%-22s %12s %12s %14s %10s%n",
        "op",
        "CPU us/op",
        "(max)",
        "CPU ms/MiB",
        "vs floor");
    best.forEach(
        (k, r) ->
            System.out.printf(
                Locale.ROOT,
                "%-22s %12.0f %12.0f %14.2f %10.2f%n",
                k,
                r[0],
                r[1],
                r[0] / 1e3 / mib,
                r[0] / floor));
  }
}
