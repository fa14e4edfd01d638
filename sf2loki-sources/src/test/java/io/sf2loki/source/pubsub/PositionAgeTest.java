package io.sf2loki.source.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PositionAgeTest {

  final ManualClock clock = new ManualClock(Instant.parse("2026-12-07T00:00:00Z"));
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final PositionAge age = new PositionAge("/event/T", clock, new PubSubMetrics(registry));

  double gauge() {
    return registry
        .get("sf2loki_pubsub_position_age_seconds")
        .tag("topic", "/event/T")
        .gauge()
        .value();
  }

  @Test
  void aCommittedPositionCountsFromWhenItsResponseWasHandedDownstream() {
    age.emitted(List.of("a1", "a2", "a3"));
    clock.advance(Duration.ofSeconds(10));
    age.emitted(List.of("b1", "b2"));
    clock.advance(Duration.ofSeconds(5));

    assertThat(age.observe(Optional.of("a2"))).contains("a2");
    assertThat(gauge()).isEqualTo(15);
    assertThat(age.observe(Optional.of("b2"))).contains("b2");
    assertThat(gauge()).isEqualTo(5);
  }

  @Test
  void aPositionThisRunDidNotHandDownstreamIsNotOursAndCountsFromTheStart() {
    age.emitted(List.of("a1"));
    clock.advance(Duration.ofSeconds(7));

    assertThat(age.observe(Optional.of("loaded"))).isEmpty();
    assertThat(age.observe(Optional.of("loaded"))).isEmpty();
    assertThat(gauge()).isEqualTo(7);
  }

  @Test
  void positionsBeforeACommittedOneAreForgottenAndItStaysOurs() {
    age.emitted(List.of("a1", "a2"));
    age.emitted(List.of("b1", "b2"));

    assertThat(age.observe(Optional.of("b1"))).contains("b1");
    assertThat(age.observe(Optional.of("b1"))).contains("b1");
    assertThat(age.observe(Optional.of("a2"))).isEmpty();
    assertThat(age.observe(Optional.of("b2"))).contains("b2");
  }

  @Test
  void aValueNotOursBecomesOursOnceItIsHandedDownstream() {
    assertThat(age.observe(Optional.of("c1"))).isEmpty();
    age.emitted(List.of("c1"));

    assertThat(age.observe(Optional.of("c1"))).contains("c1");
  }

  @Test
  void onlyTheNewestPositionsAreTracked() {
    int half = PositionAge.MAX_TRACKED / 2 + 1_000;
    List<String> first = new ArrayList<>();
    for (int i = 0; i < half; i++) {
      first.add("a" + i);
    }
    List<String> second = new ArrayList<>();
    for (int i = 0; i < half; i++) {
      second.add("b" + i);
    }
    age.emitted(first);
    age.emitted(second);

    assertThat(age.observe(Optional.of("a1999"))).isEmpty();
    assertThat(age.observe(Optional.of("a2000"))).contains("a2000");
    assertThat(age.observe(Optional.of("b" + (half - 1)))).contains("b" + (half - 1));
  }

  /**
   * Two lane queues of positions (10,000 each by default: the lane's and the delivered entries
   * waiting for a write under {@code state.streaming_commit_interval}) and two batches are handed
   * downstream before the first of them is committed.
   */
  @Test
  void thePositionsAFullLaneHoldsUncommittedAreStillTracked() {
    List<String> handed = new ArrayList<>();
    for (int i = 0; i < 2 * 10_000 + 2 * 1_000; i++) {
      handed.add("p" + i);
    }
    age.emitted(handed);

    assertThat(age.observe(Optional.of("p0"))).contains("p0");
  }

  @Test
  void everyCommittedPositionIsFoundWhileHandedPositionsWrapAroundAndOutgrowTheTracker() {
    int lag = 7;
    for (int response = 0; response < 300; response++) {
      List<String> handed = new ArrayList<>();
      for (int i = 0; i < 700; i++) {
        handed.add(response + ":" + i);
      }
      age.emitted(handed);
      clock.advance(Duration.ofSeconds(1));
      if (response >= lag) {
        String committed = (response - lag) + ":699";
        assertThat(age.observe(Optional.of(committed))).contains(committed);
        assertThat(gauge()).isEqualTo(lag + 1);
      }
    }
  }
}
