package io.sf2loki.source.apexlog;

import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.rest.ApiErrorException;
import io.sf2loki.salesforce.rest.SalesforceApiException;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.rest.ThrottledException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Downloads log bodies and decides what a failure means: 404 (Salesforce purged the log) ships
 * metadata only at once; any other failure stops the cycle at that log until it has failed {@code
 * max_body_attempts} times (counted across cycles) or is older than {@code download_max_age}, then
 * it ships metadata only. Confined to the source thread.
 */
final class ApexLogBodies {

  /** What to do with one log. */
  sealed interface Body permits Text, Skip, Retry {}

  /** The body text and its size in bytes. */
  record Text(String text, long bytes) implements Body {}

  /** Ship metadata only, marked with {@code reason} ({@code size} or {@code download_error}). */
  record Skip(String reason) implements Body {}

  /** Stop the cycle here without advancing; the next cycle tries again. */
  record Retry(String why) implements Body {}

  private final SalesforceRestClient rest;
  private final ApexLogConfig config;
  private final ApexLogMetrics metrics;
  private final Supplier<Instant> salesforceNow;
  private final Map<String, Integer> attempts = new HashMap<>();
  private boolean throttled;

  ApexLogBodies(
      SalesforceRestClient rest,
      ApexLogConfig config,
      ApexLogMetrics metrics,
      Supplier<Instant> salesforceNow) {
    this.rest = rest;
    this.config = config;
    this.metrics = metrics;
    this.salesforceNow = salesforceNow;
  }

  /**
   * @throws ThrottledException when the body download is throttled (the cycle aborts)
   */
  Body fetch(String id, long length, Optional<Instant> start)
      throws ThrottledException, AuthException, InterruptedException {
    if (length > config.maxBodyBytes()) {
      metrics.skipped("size");
      return new Skip("size");
    }
    String path = rest.dataPath("tooling/sobjects/ApexLog/" + id + "/Body");
    try {
      byte[] body =
          rest.download(
              path,
              in ->
                  in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, config.maxBodyBytes() + 1)));
      attempts.remove(id);
      if (body.length > config.maxBodyBytes()) {
        metrics.skipped("size");
        return new Skip("size");
      }
      metrics.downloaded(body.length);
      return new Text(new String(body, StandardCharsets.UTF_8), body.length);
    } catch (ThrottledException e) {
      throttled = true;
      throw e;
    } catch (SalesforceApiException e) {
      metrics.downloadError(
          e instanceof ApiErrorException api ? "HTTP " + api.status() : "transport");
      if (e instanceof ApiErrorException api && api.status() == 404) {
        return giveUp(id);
      }
      int n = attempts.merge(id, 1, Integer::sum);
      boolean old =
          start
              .map(
                  t ->
                      Duration.between(t, salesforceNow.get()).compareTo(config.downloadMaxAge())
                          > 0)
              .orElse(false);
      if (n >= config.maxBodyAttempts() || old) {
        return giveUp(id);
      }
      return new Retry("attempt " + n + " of " + config.maxBodyAttempts() + ": " + e.getMessage());
    }
  }

  /** True (once) when the last throttle came from a body download rather than the listing. */
  boolean consumeBodyThrottle() {
    boolean was = throttled;
    throttled = false;
    return was;
  }

  private Body giveUp(String id) {
    attempts.remove(id);
    metrics.skipped("download_error");
    return new Skip("download_error");
  }
}
