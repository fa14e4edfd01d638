package io.sf2loki.coordinate.k8s;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.coordinate.support.LeaderFenceCheckContract;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The leader's fence check against the fabric8 CRUD mock API server. */
class K8sLeaseFenceCheckIT extends LeaderFenceCheckContract {

  private K8sLeaseFixture fx;

  @Override
  protected void open(Path dir) throws Exception {
    fx = new K8sLeaseFixture();
  }

  @Override
  protected SimulatedTime time() {
    return fx.time;
  }

  @Override
  protected Coordinator coordinator(String holder, Optional<EpochFloor> floor) throws Exception {
    return fx.coordinator(holder, floor);
  }

  @Override
  protected MeterRegistry metrics() {
    return fx.metrics;
  }

  @Override
  protected Duration renewInterval() {
    return K8sLeaseFixture.RENEW;
  }

  @Override
  protected void close() {
    fx.close();
  }
}
