package io.sf2loki.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestTimingTest {

  private static double parse(String property, String env) {
    return TestTiming.parse(Optional.ofNullable(property), Optional.ofNullable(env));
  }

  @Test
  void theFactorIsOneUnlessConfigured() {
    assertThat(parse(null, null)).isEqualTo(1);
    assertThat(parse(" ", "")).isEqualTo(1);
  }

  @Test
  void thePropertyWinsOverTheEnvironmentVariable() {
    assertThat(parse("2.5", "4")).isEqualTo(2.5);
    assertThat(parse(null, " 4 ")).isEqualTo(4);
    assertThat(parse("", "3")).isEqualTo(3);
  }

  @Test
  void aFactorBelowOneOrNotANumberIsRefusedWithItsSource() {
    assertThatThrownBy(() -> parse("fast", null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("sf2loki.test.timing.factor (fast) must be a number of at least 1");
    assertThatThrownBy(() -> parse(null, "0.5"))
        .hasMessage("SF2LOKI_TEST_TIMING_FACTOR (0.5) must be a number of at least 1");
    assertThatThrownBy(() -> parse("NaN", null)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> parse("Infinity", null)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void boundsScaleByTheFactorRoundedUpToTheMillisecond() {
    assertThat(TestTiming.scale(Duration.ofSeconds(10), 1)).isEqualTo(Duration.ofSeconds(10));
    assertThat(TestTiming.scale(Duration.ofSeconds(10), 2.5)).isEqualTo(Duration.ofSeconds(25));
    assertThat(TestTiming.scale(Duration.ofMillis(3), 1.1)).isEqualTo(Duration.ofMillis(4));
    assertThatThrownBy(() -> TestTiming.scale(Duration.ofSeconds(-1), 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void thisJvmRunsWithTheFactorTheBuildHandedIt() {
    // surefire sets the property from SF2LOKI_TEST_TIMING_FACTOR (1 when unset)
    double expected = parse(System.getProperty(TestTiming.PROPERTY), System.getenv(TestTiming.ENV));
    assertThat(TestTiming.factor()).isEqualTo(expected);
    assertThat(TestTiming.seconds(4))
        .isEqualTo(TestTiming.scale(Duration.ofSeconds(4), TestTiming.factor()));
    assertThat(TestTiming.millis(250))
        .isEqualTo(TestTiming.scale(Duration.ofMillis(250), TestTiming.factor()));
    assertThat(TestTiming.jvmArgument())
        .isEqualTo("-Dsf2loki.test.timing.factor=" + TestTiming.factor());
  }

  @Test
  void theBuildSetsThePropertyForEveryTestJvm() {
    assumeTrue(System.getProperty("surefire.real.class.path") != null, "run by surefire");
    assertThat(System.getProperty(TestTiming.PROPERTY))
        .as("the root pom's surefire setting")
        .isNotBlank();
  }
}
