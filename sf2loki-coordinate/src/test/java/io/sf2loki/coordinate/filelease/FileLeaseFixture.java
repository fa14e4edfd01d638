package io.sf2loki.coordinate.filelease;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** Builds file-lease coordinators over one lease file on a shared simulated timeline. */
final class FileLeaseFixture {

  static final Duration TTL = Duration.ofSeconds(30);
  static final Duration RENEW = Duration.ofSeconds(10);

  final SimulatedTime time =
      new SimulatedTime(Instant.parse("2026-01-01T12:00:00Z"), new NamedThreadFactory("sim"));

  /** Where every coordinator of this fixture reports. */
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  final Path lease;
  final FileLeaseConfig config;

  FileLeaseFixture(Path dir) {
    this.lease = dir.resolve("leader.lease");
    this.config = new FileLeaseConfig(lease, TTL, RENEW, Optional.empty());
  }

  FileLeaseCoordinator coordinator(String holder, Optional<EpochFloor> floor) {
    return coordinator(new FileLeaseFile(lease), holder, floor);
  }

  FileLeaseCoordinator coordinator(
      FileLeaseStorage storage, String holder, Optional<EpochFloor> floor) {
    return coordinator(storage, holder, floor, time::sleep);
  }

  /** A coordinator that waits through {@code sleeper} (a simulated sleep that overshoots, say). */
  FileLeaseCoordinator coordinator(
      FileLeaseStorage storage, String holder, Optional<EpochFloor> floor, Sleeper sleeper) {
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(time.clock(), time.ticker(), floor, metrics, Map.of());
    return new FileLeaseCoordinator(storage, holder, config, env, sleeper);
  }

  LeaseRead read() {
    return new FileLeaseReader().read(lease);
  }

  FileLeaseDocument document() {
    return ((LeaseRead.Present) read()).document();
  }

  void write(FileLeaseDocument doc) throws java.io.IOException {
    new FileLeaseFile(lease).write(doc);
  }
}
