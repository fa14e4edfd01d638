package io.sf2loki.testkit;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The one factor every wall-clock bound of the tests scales with, for slow machines (after
 * Curator's {@code Timing}). A bound is how long a test waits at most for something that normally
 * happens much sooner: an Awaitility {@code atMost}, a {@code Future.get} or {@code Thread.join}
 * timeout, a deadline loop, an HTTP timeout of a test client. Durations a test asserts or
 * configures as behaviour (a lease TTL, a flush interval, simulated time) do not scale.
 *
 * <p>The factor is the system property {@value #PROPERTY}, else the environment variable {@value
 * #ENV}, else 1. The build sets the property from the environment variable for every test JVM, so
 * on a slow or loaded machine {@code SF2LOKI_TEST_TIMING_FACTOR=3 mvn -B verify} gives every bound
 * three times its room. It must be a number of at least 1; anything else fails the test that reads
 * it rather than running with a silently wrong bound. A JVM a test starts gets it through {@link
 * #jvmArgument()}.
 */
public final class TestTiming {

  /** The system property holding the factor. */
  public static final String PROPERTY = "sf2loki.test.timing.factor";

  /** The environment variable the build copies into {@link #PROPERTY}. */
  public static final String ENV = "SF2LOKI_TEST_TIMING_FACTOR";

  private static final double FACTOR =
      parse(
          Optional.ofNullable(System.getProperty(PROPERTY)),
          Optional.ofNullable(System.getenv(ENV)));

  private TestTiming() {}

  /** The factor of this JVM: at least 1, and 1 unless configured. */
  public static double factor() {
    return FACTOR;
  }

  /** {@code bound} times the factor, rounded up to the millisecond. */
  public static Duration scaled(Duration bound) {
    return scale(bound, FACTOR);
  }

  /** {@code seconds} seconds, scaled. */
  public static Duration seconds(long seconds) {
    return scaled(Duration.ofSeconds(seconds));
  }

  /** {@code millis} milliseconds, scaled. */
  public static Duration millis(long millis) {
    return scaled(Duration.ofMillis(millis));
  }

  /** The {@code -D} option that gives a child JVM this JVM's factor. */
  public static String jvmArgument() {
    return "-D" + PROPERTY + "=" + FACTOR;
  }

  static Duration scale(Duration bound, double factor) {
    if (bound.isNegative()) {
      throw new IllegalArgumentException("a bound must not be negative: " + bound);
    }
    return Duration.ofMillis((long) Math.ceil(bound.toMillis() * factor));
  }

  /** The property when set (and not blank), else the environment variable, else 1. */
  static double parse(Optional<String> property, Optional<String> env) {
    Optional<String> given = property.filter(s -> !s.isBlank());
    String source = PROPERTY;
    if (given.isEmpty()) {
      given = env.filter(s -> !s.isBlank());
      source = ENV;
    }
    if (given.isEmpty()) {
      return 1;
    }
    String text = given.get().strip();
    double factor;
    try {
      factor = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(source + " (" + text + ") must be a number of at least 1", e);
    }
    if (!(factor >= 1) || Double.isInfinite(factor)) {
      throw new IllegalStateException(
          String.format(Locale.ROOT, "%s (%s) must be a number of at least 1", source, text));
    }
    return factor;
  }
}
