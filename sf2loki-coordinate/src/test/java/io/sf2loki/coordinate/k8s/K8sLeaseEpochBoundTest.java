package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.tck.Contender;
import io.sf2loki.tck.FakeEpochFloor;
import io.sf2loki.testkit.TestTiming;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code leaseTransitions} is an int32: an epoch floor at its top is a clear, permanent error at
 * acquire, and the Lease is left alone.
 */
class K8sLeaseEpochBoundTest {

  K8sLeaseFixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new K8sLeaseFixture();
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  @Test
  void anEpochBeyondInt32IsAClearErrorAtAcquireNotAnOverflow() throws Exception {
    fx.seed("", 5);
    Contender a =
        Contender.start(
            fx.time,
            "pod-a",
            fx.coordinator("pod-a", Optional.of(FakeEpochFloor.of(Integer.MAX_VALUE))));

    assertThatThrownBy(() -> a.participant().join(TestTiming.seconds(10)))
        .isInstanceOf(EpochBound.EpochOutOfRangeException.class)
        .hasMessageContaining("epoch 2147483648")
        .hasMessageContaining("int32 leaseTransitions")
        .hasMessageContaining("state set --force __fence_epoch__");
    assertThat(a.listener().acquired()).isEmpty();
    assertThat(fx.read().getSpec().getLeaseTransitions()).isEqualTo(5);
  }
}
