package io.sf2loki.coordinate.k8s;

import io.sf2loki.coordinate.support.LeaderFenceCheckContract;
import java.nio.file.Path;

/** The leader's fence check against the fabric8 CRUD mock API server. */
class K8sLeaseFenceCheckIT extends LeaderFenceCheckContract {

  @Override
  protected Backend open(Path dir) throws Exception {
    K8sLeaseFixture fx = new K8sLeaseFixture();
    return new Backend(fx.time, fx.metrics, K8sLeaseFixture.RENEW, fx::coordinator, fx::close);
  }
}
