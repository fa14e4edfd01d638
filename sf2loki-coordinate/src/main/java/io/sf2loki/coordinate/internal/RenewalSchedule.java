package io.sf2loki.coordinate.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When a leader's next renewal starts, on the monotonic clock. While renewals succeed: one renew
 * interval after the last. After a failed one: retries a quarter of the renew interval apart, for
 * as long as one can start by the term's <em>deadline</em> (the latest a renewal step may start:
 * the file lease's last chance, the Kubernetes term's lapse), the last of them moved a {@link
 * #margin} before the deadline. When no retry fits, the leader steps down at once instead of
 * sleeping until a deadline it could not use.
 *
 * <p>Why a quarter: at the defaults (ttl 30s, renew_interval 10s, io_timeout 5s) a renewal that
 * fails on schedule has 10 s before the file lease's last chance; retries 2.5 s apart give it four
 * more attempts (at +2.5, +5, +7.5 and +9.4 s), so a glitch of the shared file system that clears
 * within about 9 s costs no failover, while a struggling server sees at most four times the
 * leader's usual rate of lease I/O (a Kubernetes leader has 20 s until its term lapses: eight
 * retries). Retries one renew interval apart would leave a single one, due exactly on the last
 * chance. Every timing the validation accepts leaves room for at least one retry of a renewal that
 * failed on schedule.
 *
 * <p>Why a margin: a sleep wakes a little after its deadline (the scheduler, a GC safepoint), so a
 * retry planned exactly on the deadline finds itself past it and steps down as if the process had
 * been paused. A sixteenth of the renew interval (625 ms at the defaults) absorbs that and leaves
 * the final retry time for the read before its write. A step that still starts past the deadline
 * was delayed by more than the margin: only then does a message speak of a pause ({@link
 * #startedLate}).
 */
public final class RenewalSchedule {

  private final Ticker ticker;
  private final long intervalNanos;
  private final long retryNanos;
  private final long marginNanos;
  private final Counter failures;
  private long nextNanos;

  /**
   * @param renewInterval the time between renewals while they succeed
   * @param ticker the monotonic clock the deadlines are on
   * @param metrics where failed renewals are counted
   */
  public RenewalSchedule(Duration renewInterval, Ticker ticker, MeterRegistry metrics) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.intervalNanos = renewInterval.toNanos();
    this.retryNanos = Math.max(1, intervalNanos / 4);
    this.marginNanos = Math.max(1, intervalNanos / 16);
    this.failures =
        Counter.builder("sf2loki_lease_renewal_failures")
            .description(
                "renewals of a held lease that failed (a read, write or API call); each is retried"
                    + " while a retry can start before the lease must be given up")
            .register(metrics);
    this.nextNanos = ticker.nanoTime() + intervalNanos;
  }

  /** How long before a deadline the last retry is planned. */
  public Duration margin() {
    return Duration.ofNanos(marginNanos);
  }

  /** The {@link Ticker} time at which the next renewal is due. */
  public long nextNanos() {
    return nextNanos;
  }

  /** A term was won: its first renewal is due one renew interval from now. */
  public void started() {
    nextNanos = ticker.nanoTime() + intervalNanos;
  }

  /**
   * A renewal was confirmed: the next is due one renew interval from now, or a margin before {@code
   * deadlineNanos} (where the next renewal must have started) if that is sooner.
   */
  public void renewed(long deadlineNanos) {
    long now = ticker.nanoTime();
    nextNanos = Math.max(now, Math.min(now + intervalNanos, deadlineNanos - marginNanos));
  }

  /**
   * A renewal failed: plans its retry a quarter of the renew interval from now, moved to a margin
   * before {@code deadlineNanos} when that is sooner. The failure is counted.
   *
   * @return the wait until the retry, or empty when none can start a margin before the deadline:
   *     the leader must step down now
   */
  public Optional<Duration> retry(long deadlineNanos) {
    failures.increment();
    long now = ticker.nanoTime();
    long at = Math.min(now + retryNanos, deadlineNanos - marginNanos);
    if (at - now <= 0) {
      return Optional.empty();
    }
    nextNanos = at;
    return Optional.of(Duration.ofNanos(at - now));
  }

  /** How far past {@code deadlineNanos} the ticker is now, or empty when it is not past it. */
  public Optional<Duration> lateFor(long deadlineNanos) {
    long late = ticker.nanoTime() - deadlineNanos;
    return late > 0 ? Optional.of(Duration.ofNanos(late)) : Optional.empty();
  }

  /**
   * {@code "the renewal started 1250 ms after its last chance (the process was paused or
   * starved?)"}: for a step that started past its deadline although it was planned a margin before
   * it.
   *
   * @param step what started late, e.g. {@code "the renewal"}
   * @param late how far past the deadline it started
   * @param deadline what the deadline is, e.g. {@code "its last chance"}
   */
  public static String startedLate(String step, Duration late, String deadline) {
    return step
        + " started "
        + late.toMillis()
        + " ms after "
        + deadline
        + " (the process was paused or starved?)";
  }
}
