package io.sf2loki.pipeline.egress;

import io.sf2loki.config.Durations;
import io.sf2loki.config.EgressConfig;
import io.sf2loki.spi.Source;
import io.sf2loki.spi.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The egress governor of one run, shared by its lanes: admits each batch before its first push
 * attempt (retries are not admitted again) against the day's byte budget and the lane's rate caps,
 * and counts what Loki accepted.
 *
 * <p><b>Budget.</b> A batch the UTC day's remaining budget cannot take is held until 00:00 UTC
 * ({@code pause}: the lane and, through backpressure, its sources stop; checkpoints hold; nothing
 * is lost) or dropped and committed past ({@code drop}). Exempt lanes push on, up to their caps,
 * and their bytes still count. The day's first batch is always admitted, so a budget smaller than
 * one batch cannot hold a lane forever; two lanes admitted at once may overshoot by one batch each.
 * The use is loaded from the run's checkpoint document ({@link DailyUsage#KEY}) and rides every
 * commit after it changed, so it survives restarts and failover.
 *
 * <p><b>Caps.</b> One bytes and one lines {@link TokenBucket} per capped lane; waiting is lossless
 * and an abort interrupts it. Thread-safe.
 */
public final class EgressGovernor {

  private static final Logger LOG = LoggerFactory.getLogger(EgressGovernor.class);

  /** The longest a paused lane waits before looking at the clock again (a day rolled, a stop). */
  static final Duration PAUSE_SLICE = Duration.ofSeconds(1);

  private static final double WARN_AT = 0.8;

  private final EgressConfig config;
  private final Clock clock;
  private final EgressMetrics metrics;
  private final Map<Source.Lane, TokenBucket> bytes = new EnumMap<>(Source.Lane.class);
  private final Map<Source.Lane, TokenBucket> lines = new EnumMap<>(Source.Lane.class);
  private final Set<Source.Lane> held =
      Collections.synchronizedSet(EnumSet.noneOf(Source.Lane.class));
  private DailyUsage usage;
  private boolean dirty;
  private LocalDate warnedOn;
  private Instant lastDropWarning = Instant.MIN;

  /**
   * @param loaded the run's checkpoint document as loaded at its start
   */
  public EgressGovernor(
      EgressConfig config,
      Clock clock,
      Ticker ticker,
      EgressMetrics metrics,
      Map<String, String> loaded) {
    this.config = config;
    this.clock = clock;
    this.metrics = metrics;
    for (Source.Lane lane : Source.Lane.values()) {
      EgressConfig.RateCaps caps = config.caps(lane);
      if (caps.bytesPerSecond() > 0) {
        bytes.put(lane, new TokenBucket(caps.bytesPerSecond(), ticker));
      }
      if (caps.linesPerSecond() > 0) {
        lines.put(lane, new TokenBucket(caps.linesPerSecond(), ticker));
      }
    }
    this.usage = load(loaded.get(DailyUsage.KEY));
    metrics.limit(config.dailyByteBudget());
    metrics.used(usage.bytes());
  }

  private DailyUsage load(String stored) {
    LocalDate today = today();
    if (stored == null || !config.hasBudget()) {
      return new DailyUsage(today, 0);
    }
    try {
      DailyUsage read = DailyUsage.parse(stored);
      return read.date().equals(today) ? read : new DailyUsage(today, 0);
    } catch (IllegalArgumentException e) {
      metrics.loadError();
      LOG.warn(
          "the checkpoint document's {} ('{}') cannot be read ({}); today's egress use starts at 0"
              + " and the value is rewritten at the next commit",
          DailyUsage.KEY,
          stored.length() > 80 ? stored.substring(0, 80) + "..." : stored,
          e.getMessage());
      dirty = true;
      return new DailyUsage(today, 0);
    }
  }

  /**
   * Admits a batch of {@code lineCount} real entries and {@code lineBytes} line bytes on {@code
   * lane}, waiting (through {@code wait}) while the budget is spent or a cap is reached.
   */
  public Admission admit(Source.Lane lane, long lineCount, long lineBytes, EgressWait wait)
      throws InterruptedException {
    if (config.hasBudget() && !config.isExempt(lane)) {
      Optional<Admission> refused = budget(lane, lineBytes, wait);
      if (refused.isPresent()) {
        return refused.get();
      }
    }
    return caps(lane, lineCount, lineBytes, wait);
  }

  /**
   * As {@link #admit}, for a caller that must not wait for the next UTC day (the Kafka Connect sink
   * task, whose consumer would leave its group): a batch the day's budget cannot take under {@code
   * pause} is {@link Admission.Hold held}, and the caller keeps it and asks again. The lane counts
   * as paused (gauge, one log line) from the first hold until a batch of it fits again. Rate caps
   * still wait through {@code wait} (at most about a second: a bucket holds one second of rate).
   */
  public Admission admitOrHold(Source.Lane lane, long lineCount, long lineBytes, EgressWait wait)
      throws InterruptedException {
    if (config.hasBudget() && !config.isExempt(lane)) {
      if (!fits(lineBytes)) {
        if (config.action() == EgressConfig.BudgetAction.DROP) {
          warnDropped(lane, lineBytes);
          return new Admission.Drop();
        }
        LocalDate until = today().plusDays(1);
        if (held.add(lane)) {
          metrics.paused(lane, until);
          logPaused(lane, until);
        }
        return new Admission.Hold(until.atStartOfDay(ZoneOffset.UTC).toInstant());
      }
      if (held.remove(lane)) {
        metrics.resumed(lane);
        logResumed(lane);
      }
    }
    return caps(lane, lineCount, lineBytes, wait);
  }

  private Admission caps(Source.Lane lane, long lineCount, long lineBytes, EgressWait wait)
      throws InterruptedException {
    Duration due = Duration.ZERO;
    TokenBucket b = bytes.get(lane);
    if (b != null) {
      due = max(due, b.take(lineBytes));
    }
    TokenBucket l = lines.get(lane);
    if (l != null) {
      due = max(due, l.take(lineCount));
    }
    if (!due.isZero()) {
      metrics.throttled(lane, due);
      if (wait.await(due)) {
        return new Admission.GiveUp();
      }
    }
    return new Admission.Admit();
  }

  /** Empty when the batch fits today's budget; else what it meets once it does not. */
  private Optional<Admission> budget(Source.Lane lane, long lineBytes, EgressWait wait)
      throws InterruptedException {
    if (fits(lineBytes)) {
      return Optional.empty();
    }
    if (config.action() == EgressConfig.BudgetAction.DROP) {
      warnDropped(lane, lineBytes);
      return Optional.of(new Admission.Drop());
    }
    LocalDate until = today().plusDays(1);
    metrics.paused(lane, until);
    logPaused(lane, until);
    try {
      while (!fits(lineBytes)) {
        if (wait.stopping()) {
          return Optional.of(new Admission.GiveUp());
        }
        Duration left = Duration.between(clock.instant(), until.atStartOfDay(ZoneOffset.UTC));
        Duration slice = left.compareTo(PAUSE_SLICE) < 0 ? left : PAUSE_SLICE;
        if (wait.await(slice.isNegative() ? Duration.ZERO : slice)) {
          return Optional.of(new Admission.GiveUp());
        }
      }
    } finally {
      metrics.resumed(lane);
    }
    logResumed(lane);
    return Optional.empty();
  }

  private void logPaused(Source.Lane lane, LocalDate until) {
    LOG.warn(
        "{} lane: Loki daily byte budget spent ({} of {} bytes on {} UTC); pushes pause until"
            + " {}T00:00Z, positions hold (nothing is committed past), nothing is dropped",
        lane,
        usedToday(),
        config.dailyByteBudget(),
        until.minusDays(1),
        until);
  }

  private static void logResumed(Source.Lane lane) {
    LOG.info("{} lane: the Loki byte budget takes the next batch; pushes resume", lane);
  }

  /** True when today's budget takes {@code lineBytes} more; the day's first batch always fits. */
  private synchronized boolean fits(long lineBytes) {
    roll();
    return usage.bytes() == 0 || usage.bytes() + lineBytes <= config.dailyByteBudget();
  }

  private synchronized long usedToday() {
    return usage.bytes();
  }

  /**
   * Replaces the day's use with {@code total}, counted elsewhere: the Kafka Connect sink
   * connector's tasks share one budget and read its use back from Kafka. A total of another day is
   * ignored.
   */
  public synchronized void observed(DailyUsage total) {
    if (!config.hasBudget()) {
      return;
    }
    roll();
    if (total.date().equals(usage.date()) && total.bytes() != usage.bytes()) {
      usage = total; // not dirty: this use is stored where it was counted
      metrics.used(usage.bytes());
    }
  }

  /** Counts {@code lineBytes} Loki accepted on {@code lane} (exempt lanes too). */
  public synchronized void pushed(Source.Lane lane, long lineBytes) {
    if (!config.hasBudget() || lineBytes == 0) {
      return;
    }
    roll();
    usage = new DailyUsage(usage.date(), usage.bytes() + lineBytes);
    dirty = true;
    metrics.used(usage.bytes());
    long budget = config.dailyByteBudget();
    if (usage.bytes() >= WARN_AT * budget && !usage.date().equals(warnedOn)) {
      warnedOn = usage.date();
      LOG.warn(
          "Loki daily byte budget {}% used ({} of {} bytes on {} UTC, last pushed by the {} lane)",
          Math.round(100.0 * usage.bytes() / budget), usage.bytes(), budget, usage.date(), lane);
    }
  }

  /** The stored form of the day's use, when it changed since the last {@link #persisted}. */
  public synchronized Optional<String> unpersisted() {
    return config.hasBudget() && dirty ? Optional.of(usage.toJson()) : Optional.empty();
  }

  /** {@code value}, taken from {@link #unpersisted}, is now in the store. */
  public synchronized void persisted(String value) {
    if (value.equals(usage.toJson())) {
      dirty = false;
    }
  }

  private void roll() {
    LocalDate today = today();
    if (!usage.date().equals(today)) {
      usage = new DailyUsage(today, 0);
      dirty = true;
      metrics.used(0);
    }
  }

  private void warnDropped(Source.Lane lane, long lineBytes) {
    Instant now = clock.instant();
    synchronized (this) {
      if (Duration.between(lastDropWarning, now).compareTo(Duration.ofMinutes(1)) < 0) {
        return;
      }
      lastDropWarning = now;
    }
    LOG.warn(
        "{} lane: Loki daily byte budget spent ({} of {} bytes today); dropping a batch of {} bytes"
            + " (budget_action = drop; counted in sf2loki_loki_entries_dropped, reason budget),"
            + " at most one such line per {}",
        lane,
        usedToday(),
        config.dailyByteBudget(),
        lineBytes,
        Durations.format(Duration.ofMinutes(1)));
  }

  private LocalDate today() {
    return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
