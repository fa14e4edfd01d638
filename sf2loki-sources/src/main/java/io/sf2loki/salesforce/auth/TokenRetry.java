package io.sf2loki.salesforce.auth;

import io.sf2loki.pipeline.Backoff;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How an {@link OAuthTokenProvider} retries a mint that failed transiently (a 5xx answer or a
 * transport error; a 4xx is never retried): {@code attempts} in all, waiting {@code backoff} before
 * each retry.
 *
 * @param attempts token requests per mint, at least 1
 * @param backoff the wait before retry number {@code n}
 */
public record TokenRetry(int attempts, Backoff backoff) {

  /** The attempts of {@link #standard}. */
  public static final int STANDARD_ATTEMPTS = 4;

  /** One token request per mint and no wait: for a caller that reports the first failure. */
  public static final TokenRetry NONE = new TokenRetry(1, Backoff.NONE);

  public TokenRetry {
    if (attempts < 1) {
      throw new IllegalArgumentException("a mint makes at least one attempt: " + attempts);
    }
    Objects.requireNonNull(backoff, "backoff");
  }

  /**
   * The daemon's policy: {@value #STANDARD_ATTEMPTS} attempts, 500 ms doubling up to 10 s between
   * them, jittered.
   *
   * @param random the jitter source
   */
  public static TokenRetry standard(RandomGenerator random) {
    return new TokenRetry(
        STANDARD_ATTEMPTS,
        Backoff.exponentialPlusHalf(Duration.ofMillis(500), Duration.ofSeconds(10), random));
  }
}
