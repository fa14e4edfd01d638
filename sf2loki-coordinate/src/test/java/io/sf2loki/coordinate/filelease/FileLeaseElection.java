package io.sf2loki.coordinate.filelease;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.support.FaultyLeaseStorage;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.tck.LeaseDamage;
import io.sf2loki.tck.LeaseElection;
import io.sf2loki.tck.SimulatedTime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kit's adapter for file_lease: one lease file and one real state file in a directory, every
 * contender's storage behind a {@link FaultyLeaseStorage}.
 */
final class FileLeaseElection implements LeaseElection {

  /** The damages a lease file suffers beyond deletion and an edited epoch. */
  static final List<LeaseDamage<FileLeaseElection>> DAMAGES =
      List.of(
          new LeaseDamage<>("truncate lease to %d bytes", 40, FileLeaseElection::truncateLease),
          LeaseDamage.of("corrupt lease", (e, unused) -> e.corruptLease()));

  private final SimulatedTime time;
  private final Path lease;
  private final Path state;
  private final FileLeaseConfig config;

  FileLeaseElection(Path dir, SimulatedTime time) {
    this.time = time;
    this.lease = dir.resolve("leader.lease");
    this.state = dir.resolve("state.json");
    this.config =
        new FileLeaseConfig(lease, FileLeaseFixture.TTL, FileLeaseFixture.RENEW, Optional.empty());
  }

  @Override
  public Candidate join(String identity, Optional<EpochFloor> floor) {
    FaultyLeaseStorage storage = new FaultyLeaseStorage(new FileLeaseFile(lease), time);
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            time.clock(), time.ticker(), floor, new SimpleMeterRegistry(), Map.of());
    FileLeaseCoordinator coordinator =
        new FileLeaseCoordinator(storage, identity, config, env, time::sleep);
    return new Candidate() {
      @Override
      public Coordinator coordinator() {
        return coordinator;
      }

      @Override
      public void pauseBeforeNextWrite(Duration pause) {
        storage.pauseBeforeNextWrite(pause);
      }

      @Override
      public void cutOffFor(Duration outage) {
        storage.downFor(outage);
      }

      @Override
      public void kill() {
        storage.pauseBeforeNextWrite(Duration.ZERO);
        storage.readsFail(true);
        storage.writesFail(true);
      }
    };
  }

  @Override
  public CheckpointStore openStore() {
    return StoreKind.fileStore(state);
  }

  @Override
  public void leaveLease(String holder, long epoch) throws Exception {
    new FileLeaseFile(lease)
        .write(new FileLeaseDocument(holder, time.instant().plus(config.ttl()), epoch));
  }

  @Override
  public void deleteLease() throws Exception {
    Files.deleteIfExists(lease);
  }

  @Override
  public void lowerLeaseEpoch(int by) throws Exception {
    if (new FileLeaseReader().read(lease) instanceof LeaseRead.Present p) {
      FileLeaseDocument d = p.document();
      new FileLeaseFile(lease)
          .write(new FileLeaseDocument(d.holder(), d.expiresAt(), Math.max(0, d.epoch() - by)));
    }
  }

  void truncateLease(int keepBytes) throws Exception {
    if (Files.exists(lease)) {
      byte[] all = Files.readAllBytes(lease);
      Files.write(lease, Arrays.copyOf(all, Math.min(keepBytes, Math.max(0, all.length - 1))));
    }
  }

  void corruptLease() throws Exception {
    Files.writeString(lease, "{\"holder\": \"a#1\", \"expi", StandardCharsets.UTF_8);
  }

  @Override
  public String describeLease() {
    return new FileLeaseReader().read(lease).toString();
  }

  @Override
  public void close() {}
}
