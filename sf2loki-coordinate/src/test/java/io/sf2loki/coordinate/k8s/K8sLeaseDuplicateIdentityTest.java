package io.sf2loki.coordinate.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Lease;
import io.sf2loki.coordinate.internal.LeaseTerm;
import io.sf2loki.spi.Term;
import io.sf2loki.tck.Contender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two processes configured with one explicit {@code identity}, against the fabric8 mock: the Lease
 * carries each writer's instance token, so a Lease rewritten by the other is never renewed as ours
 * and a release never frees its live Lease (that the second refuses to run is a rule of the tck's
 * {@code LeaseCoordinatorContract}).
 */
class K8sLeaseDuplicateIdentityTest {

  private static final Duration STEP = Duration.ofMillis(500);
  K8sLeaseFixture fx;
  final List<Contender> running = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    fx = new K8sLeaseFixture();
    fx.time.join();
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.time.leave();
    for (Contender c : running) {
      c.stop();
    }
    fx.close();
  }

  private Contender start(String id) throws Exception {
    Contender c = Contender.start(fx.time, id, fx.coordinator(id, Optional.empty()));
    running.add(c);
    return c;
  }

  private void await(BooleanSupplier condition) throws InterruptedException {
    assertThat(fx.time.awaitCondition(condition, Duration.ofMinutes(3), STEP)).isTrue();
  }

  /** Replaces the Lease as another process with the same identity would (its own token). */
  private V1Lease rewriteAsTwin() throws Exception {
    V1Lease read = fx.read();
    read.getMetadata().putAnnotationsItem(LeaseBodies.INSTANCE, "twin");
    return fx.api
        .replaceNamespacedLease(
            fx.config.name(),
            fx.config.namespace(),
            LeaseBodies.renewed(read, fx.config, fx.time.instant()))
        .execute();
  }

  @Test
  void aLeaseRewrittenByAnotherProcessWithOurIdentityIsNotRenewedAsOurs() throws Exception {
    Contender a = start("sf2loki-a");
    await(a::isLeading);

    rewriteAsTwin();
    await(() -> a.listener().held().isEmpty());

    assertThat(LeaseBodies.instance(fx.read())).contains("twin");
  }

  @Test
  void releaseNeverFreesALeaseCarryingAnotherProcesssToken() throws Exception {
    Contender a = start("sf2loki-a");
    await(a::isLeading);
    Term term = a.currentTerm().orElseThrow();
    V1Lease twins = rewriteAsTwin();

    ((K8sLeaseCoordinator) a.coordinator()).release((LeaseTerm) term);

    V1Lease after = fx.read();
    assertThat(after.getSpec().getHolderIdentity()).isEqualTo("sf2loki-a");
    assertThat(after.getMetadata().getResourceVersion())
        .isEqualTo(twins.getMetadata().getResourceVersion());
  }
}
