package io.sf2loki.salesforce.rest;

import java.util.Optional;

/**
 * Learns of every answer the {@link SalesforceRestClient} receives, for the org's API budget.
 * Implementations must be thread-safe, fast and never throw: they run on the callers' threads.
 */
public interface CallObserver {

  /** Observes nothing. */
  CallObserver NONE =
      new CallObserver() {
        @Override
        public void answered(int status, Optional<String> limitInfo) {}

        @Override
        public void throttled() {}
      };

  /**
   * One HTTP answer (any status).
   *
   * @param limitInfo the {@code Sforce-Limit-Info} header, when the answer had one
   */
  void answered(int status, Optional<String> limitInfo);

  /** The answer was 403 {@code REQUEST_LIMIT_EXCEEDED}: the org's API allocation is spent. */
  void throttled();
}
