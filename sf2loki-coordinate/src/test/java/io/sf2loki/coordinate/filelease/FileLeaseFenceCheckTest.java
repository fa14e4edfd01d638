package io.sf2loki.coordinate.filelease;

import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.coordinate.support.LeaderFenceCheckContract;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The leader's fence check on a real lease file. */
class FileLeaseFenceCheckTest extends LeaderFenceCheckContract {

  private FileLeaseFixture fx;

  @Override
  protected void open(Path dir) {
    fx = new FileLeaseFixture(dir);
  }

  @Override
  protected SimulatedTime time() {
    return fx.time;
  }

  @Override
  protected Coordinator coordinator(String holder, Optional<EpochFloor> floor) {
    return fx.coordinator(holder, floor);
  }

  @Override
  protected MeterRegistry metrics() {
    return fx.metrics;
  }

  @Override
  protected Duration renewInterval() {
    return FileLeaseFixture.RENEW;
  }

  @Override
  protected void close() {
    // the lease file goes with the test's directory
  }
}
