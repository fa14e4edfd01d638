package io.sf2loki.testkit.salesforce;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fake org's daily API allocation: every data call it answers counts against {@link #limit()},
 * and every such answer carries {@code Sforce-Limit-Info: api-usage=used/limit}, as an org's REST
 * answers do. {@code /limits} reports the same numbers as {@code DailyApiRequests}. With {@link
 * #enforce(boolean)} on, a call past the limit is answered 403 {@code REQUEST_LIMIT_EXCEEDED}, as
 * an org answers once its rolling 24-hour allocation is spent. Thread-safe.
 */
public final class ApiUsage {

  /** The header every REST answer carries. */
  public static final String HEADER = "Sforce-Limit-Info";

  private final AtomicLong used = new AtomicLong();
  private volatile long limit = 15_000;
  private volatile boolean enforce;
  private volatile Optional<String> headerOverride = Optional.empty();
  private volatile boolean limitsFail;

  ApiUsage() {}

  /** Calls counted so far (today, for the fake: since start or {@link #used(long)}). */
  public long used() {
    return used.get();
  }

  /** Sets the calls counted so far, e.g. to start a test near the limit, or 0 as a new window. */
  public ApiUsage used(long v) {
    used.set(v);
    return this;
  }

  /** The daily allocation ({@code DailyApiRequests.Max}); 15 000 unless set. */
  public long limit() {
    return limit;
  }

  /** Sets the daily allocation. */
  public ApiUsage limit(long v) {
    if (v < 0) {
      throw new IllegalArgumentException("limit must be >= 0");
    }
    this.limit = v;
    return this;
  }

  /** With {@code true}, calls past the limit are refused with 403 REQUEST_LIMIT_EXCEEDED. */
  public ApiUsage enforce(boolean v) {
    this.enforce = v;
    return this;
  }

  /** Sends {@code value} as the header instead of the real count (malformed-header tests). */
  public ApiUsage headerOverride(String value) {
    this.headerOverride = Optional.of(Objects.requireNonNull(value));
    return this;
  }

  /** Sends no header at all ({@code true}) or the real one again. */
  public ApiUsage omitHeader(boolean v) {
    this.headerOverride = v ? Optional.of("") : Optional.empty();
    return this;
  }

  /** With {@code true}, {@code /limits} answers 500 (the header keeps working). */
  public ApiUsage failLimits(boolean v) {
    this.limitsFail = v;
    return this;
  }

  boolean limitsFail() {
    return limitsFail;
  }

  /** Counts one call; false when it is past an enforced limit (and is then not counted). */
  boolean admit() {
    if (enforce && used.get() >= limit) {
      return false;
    }
    used.incrementAndGet();
    return true;
  }

  /** The header value now, empty when it is to be omitted. */
  Optional<String> header() {
    Optional<String> override = headerOverride;
    if (override.isPresent()) {
      return override.filter(v -> !v.isEmpty());
    }
    return Optional.of("api-usage=" + used.get() + "/" + limit);
  }

  /** The {@code /limits} body: DailyApiRequests from the counter plus a few fixed limits. */
  String limitsJson() {
    Map<String, Object> body = new LinkedHashMap<>();
    long max = limit;
    body.put("DailyApiRequests", entry(max, Math.max(0, max - used.get())));
    body.put("DailyBulkApiBatches", entry(15_000, 15_000));
    body.put("DataStorageMB", entry(1_024, 1_000));
    body.put("HourlyPublishedPlatformEvents", entry(50_000, 50_000));
    return Json.write(body);
  }

  private static Map<String, Object> entry(long max, long remaining) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("Max", max);
    e.put("Remaining", remaining);
    return e;
  }
}
