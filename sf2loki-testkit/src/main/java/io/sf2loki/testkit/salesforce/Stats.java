package io.sf2loki.testkit.salesforce;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of what the fake served; thread-safe. */
public final class Stats {

  final AtomicLong tokenFailures = new AtomicLong();
  private final Map<Fault.Route, AtomicLong> requests = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> downloadsCompleted = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> downloadsStarted = new ConcurrentHashMap<>();
  private final AtomicLong bytesServed = new AtomicLong();

  void request(Fault.Route route) {
    requests.computeIfAbsent(route, r -> new AtomicLong()).incrementAndGet();
  }

  void downloadStarted(String fileId) {
    downloadsStarted.computeIfAbsent(fileId, r -> new AtomicLong()).incrementAndGet();
  }

  void downloadCompleted(String fileId, long bytes) {
    downloadsCompleted.computeIfAbsent(fileId, r -> new AtomicLong()).incrementAndGet();
    bytesServed.addAndGet(bytes);
  }

  /** Requests received on {@code route} (faulted ones included). */
  public long requests(Fault.Route route) {
    AtomicLong n = requests.get(route);
    return n == null ? 0 : n.get();
  }

  /** Completed downloads of file {@code id}. */
  public long downloadsCompleted(String id) {
    AtomicLong n = downloadsCompleted.get(id);
    return n == null ? 0 : n.get();
  }

  /** Started downloads of file {@code id} (including cut ones). */
  public long downloadsStarted(String id) {
    AtomicLong n = downloadsStarted.get(id);
    return n == null ? 0 : n.get();
  }

  /** Failed token requests (4xx answers). */
  public long tokenFailures() {
    return tokenFailures.get();
  }

  /** LogFile body bytes fully served. */
  public long bytesServed() {
    return bytesServed.get();
  }

  Map<String, Object> served() {
    Map<String, Object> out = new TreeMap<>();
    Map<String, Long> byRoute = new TreeMap<>();
    requests.forEach((k, v) -> byRoute.put(k.name().toLowerCase(java.util.Locale.ROOT), v.get()));
    out.put("requests", byRoute);
    out.put("token_failures", tokenFailures.get());
    out.put("logfile_bytes_served", bytesServed.get());
    return out;
  }
}
