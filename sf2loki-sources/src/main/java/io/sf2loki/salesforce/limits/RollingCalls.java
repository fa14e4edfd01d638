package io.sf2loki.salesforce.limits;

import java.time.Duration;
import java.time.Instant;

/**
 * sf2loki's own calls in the rolling 24 hours, in five-minute buckets (a call leaves the window
 * between 23h55m and 24h after it was made, as the bucket it fell in expires). Thread-safe.
 */
final class RollingCalls {

  static final Duration WINDOW = Duration.ofHours(24);
  private static final long BUCKET_SECONDS = 300;
  private static final int BUCKETS = (int) (WINDOW.toSeconds() / BUCKET_SECONDS);

  private final long[] counts = new long[BUCKETS];
  private final long[] epochs = new long[BUCKETS];

  RollingCalls() {
    java.util.Arrays.fill(epochs, Long.MIN_VALUE);
  }

  /** Counts one call at {@code now}. */
  synchronized void add(Instant now) {
    long epoch = epoch(now);
    int i = index(epoch);
    if (epochs[i] != epoch) {
      epochs[i] = epoch;
      counts[i] = 0;
    }
    counts[i]++;
  }

  /** Calls made in the window ending at {@code now}. */
  synchronized long count(Instant now) {
    long current = epoch(now);
    long sum = 0;
    for (int i = 0; i < BUCKETS; i++) {
      if (live(epochs[i], current)) {
        sum += counts[i];
      }
    }
    return sum;
  }

  /** The first instant after {@code now} at which at most {@code target} calls remain counted. */
  synchronized Instant freedAt(Instant now, long target) {
    long current = epoch(now);
    long remaining = count(now);
    for (long e = current - BUCKETS + 1; e <= current && remaining > target; e++) {
      int i = index(e);
      if (epochs[i] == e) {
        remaining -= counts[i];
      }
      if (remaining <= target) {
        return Instant.ofEpochSecond((e + BUCKETS) * BUCKET_SECONDS);
      }
    }
    return remaining <= target ? now : Instant.ofEpochSecond((current + BUCKETS) * BUCKET_SECONDS);
  }

  private static boolean live(long epoch, long current) {
    return epoch != Long.MIN_VALUE && epoch > current - BUCKETS && epoch <= current;
  }

  private static long epoch(Instant t) {
    return Math.floorDiv(t.getEpochSecond(), BUCKET_SECONDS);
  }

  private static int index(long epoch) {
    return (int) Math.floorMod(epoch, (long) BUCKETS);
  }
}
