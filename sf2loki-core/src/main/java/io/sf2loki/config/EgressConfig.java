package io.sf2loki.config;

import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Source;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The Loki egress controls ({@code sink.loki.egress}): a daily byte budget both lanes spend and
 * each lane's rate caps. Line bytes are counted as UTF-8 before compression, as Loki's ingestion
 * limits and bills count them.
 *
 * @param dailyByteBudget line bytes per UTC day, 0 for no budget
 * @param action what happens to a batch the day's budget cannot take
 * @param exemptLanes lanes that keep pushing (up to their caps) once the budget is spent; their
 *     bytes still count
 * @param caps each lane's rate caps; a lane without an entry is not capped
 */
public record EgressConfig(
    long dailyByteBudget,
    BudgetAction action,
    Set<Source.Lane> exemptLanes,
    Map<Source.Lane, RateCaps> caps) {

  /** What a batch the day's budget cannot take meets. */
  public enum BudgetAction {
    /** Hold it (and so the lane and its sources) until the next UTC day: nothing is lost. */
    PAUSE,
    /**
     * Drop it, counted in {@code sf2loki_loki_entries_dropped{reason="budget"}}, commit past it.
     */
    DROP
  }

  /**
   * Token-bucket caps of one lane; each bucket holds one second of its rate and starts full.
   *
   * @param bytesPerSecond line bytes per second, 0 for no cap
   * @param linesPerSecond entries per second, 0 for no cap
   */
  public record RateCaps(long bytesPerSecond, long linesPerSecond) {
    public RateCaps {
      if (bytesPerSecond < 0 || linesPerSecond < 0) {
        throw new IllegalArgumentException("rate caps must not be negative");
      }
    }

    /** True when either cap is set. */
    public boolean isCapped() {
      return bytesPerSecond > 0 || linesPerSecond > 0;
    }
  }

  public EgressConfig {
    if (dailyByteBudget < 0) {
      throw new IllegalArgumentException("dailyByteBudget must not be negative");
    }
    Objects.requireNonNull(action, "action");
    exemptLanes = exemptLanes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(exemptLanes));
    caps = Map.copyOf(caps);
  }

  /** No budget, no caps (streaming exempt, should a budget be set): the documented defaults. */
  public static EgressConfig none() {
    return new EgressConfig(0, BudgetAction.PAUSE, Set.of(Source.Lane.STREAMING), Map.of());
  }

  /** True when a daily budget is set. */
  public boolean hasBudget() {
    return dailyByteBudget > 0;
  }

  /** The caps of {@code lane}; uncapped when none are set. */
  public RateCaps caps(Source.Lane lane) {
    return caps.getOrDefault(lane, new RateCaps(0, 0));
  }

  /** True when {@code lane} keeps pushing once the budget is spent. */
  public boolean isExempt(Source.Lane lane) {
    return exemptLanes.contains(lane);
  }

  /** Binds {@code sink.loki.egress} (problems are collected in {@code sinkLoki}). */
  public static EgressConfig bind(ConfigSection sinkLoki) {
    ConfigSection egress = sinkLoki.section("egress");
    long budget = egress.bytes("daily_byte_budget", 0);
    BudgetAction action =
        "drop".equals(egress.oneOf("budget_action", List.of("pause", "drop")))
            ? BudgetAction.DROP
            : BudgetAction.PAUSE;
    Set<Source.Lane> exempt = EnumSet.noneOf(Source.Lane.class);
    for (String name : egress.stringList("budget_exempt_lanes")) {
      switch (name) {
        case "streaming" -> exempt.add(Source.Lane.STREAMING);
        case "bulk" -> exempt.add(Source.Lane.BULK);
        default ->
            egress.problem(
                "budget_exempt_lanes",
                egress.path("budget_exempt_lanes")
                    + " names lanes: streaming or bulk (got '"
                    + name
                    + "')");
      }
    }
    Map<Source.Lane, RateCaps> caps = new EnumMap<>(Source.Lane.class);
    for (Source.Lane lane : Source.Lane.values()) {
      ConfigSection section = egress.section(lane.name().toLowerCase(Locale.ROOT));
      RateCaps laneCaps =
          new RateCaps(
              section.bytes("max_bytes_per_second", 0),
              section.longInRange("max_lines_per_second", 0, Long.MAX_VALUE));
      if (laneCaps.isCapped()) {
        caps.put(lane, laneCaps);
      }
    }
    return new EgressConfig(budget, action, exempt, caps);
  }
}
