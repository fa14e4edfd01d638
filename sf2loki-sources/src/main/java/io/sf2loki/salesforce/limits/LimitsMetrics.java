package io.sf2loki.salesforce.limits;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The org-limit, usage-header and budget meters. */
final class LimitsMetrics {

  private final MeterRegistry registry;
  private final Map<String, AtomicLong> max = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> remaining = new ConcurrentHashMap<>();
  private final AtomicLong headerUsed;
  private final AtomicLong headerLimit;
  private final AtomicLong budgetUsed;
  private final AtomicLong budgetAllowance;
  private final AtomicLong state;

  LimitsMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.headerUsed = gauge("sf2loki_salesforce_api_usage_used");
    this.headerLimit = gauge("sf2loki_salesforce_api_usage_limit");
    this.budgetUsed = gauge("sf2loki_salesforce_api_budget_used");
    this.budgetAllowance = gauge("sf2loki_salesforce_api_budget_allowance");
    this.state = gauge("sf2loki_salesforce_api_budget_state");
    registry.counter("sf2loki_salesforce_limit_info_errors");
    registry.counter("sf2loki_salesforce_limits_poll_errors");
  }

  private AtomicLong gauge(String name) {
    return registry.gauge(name, new AtomicLong());
  }

  void limit(OrgLimit limit) {
    max.computeIfAbsent(limit.name(), n -> limitGauge("sf2loki_salesforce_limit_max", n))
        .set(limit.max());
    remaining
        .computeIfAbsent(limit.name(), n -> limitGauge("sf2loki_salesforce_limit_remaining", n))
        .set(limit.remaining());
  }

  private AtomicLong limitGauge(String name, String limitName) {
    return registry.gauge(name, Tags.of("limit_name", limitName), new AtomicLong());
  }

  void usage(LimitInfo.Usage usage) {
    headerUsed.set(usage.used());
    headerLimit.set(usage.limit());
  }

  void budget(long used, long allowance, int level) {
    budgetUsed.set(used);
    budgetAllowance.set(allowance);
    state.set(level);
  }

  void headerError() {
    registry.counter("sf2loki_salesforce_limit_info_errors").increment();
  }

  void pollError() {
    registry.counter("sf2loki_salesforce_limits_poll_errors").increment();
  }
}
