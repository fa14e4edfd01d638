package io.sf2loki.coordinate.filelease;

import io.sf2loki.coordinate.balance.ShardQuota;
import io.sf2loki.coordinate.internal.HolderIds;
import io.sf2loki.coordinate.internal.Sleeper;
import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.spi.ConfigSection;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.CoordinatorProvider;
import io.sf2loki.spi.LeaseInspector;
import io.sf2loki.spi.RosterInfo;
import io.sf2loki.spi.ShardBalance;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Provides the {@code file_lease} coordinator. */
public final class FileLeaseCoordinatorProvider implements CoordinatorProvider {

  @Override
  public String type() {
    return FileLeaseInspector.TYPE;
  }

  @Override
  public Factory configure(ConfigSection section) {
    FileLeaseConfig config = FileLeaseConfig.bind(section);
    return new Factory() {
      private BlockingIo io;

      /**
       * One I/O pool for every coordinator of this lease (one per campaign): calls stuck on a hung
       * mount in an earlier campaign still count against its bound.
       */
      private synchronized BlockingIo io(CoordinatorEnvironment environment) {
        if (io == null) {
          io =
              new BlockingIo(
                  "lease",
                  DeadlineLeaseStorage.THREADS,
                  environment.threads(),
                  environment.metrics());
        }
        return io;
      }

      @Override
      public Optional<Duration> leaseDuration() {
        return Optional.of(config.ttl());
      }

      @Override
      public Optional<Path> leaseFile() {
        return Optional.of(config.path());
      }

      @Override
      public ShardBalance shardBalance(
          List<String> shards, int slack, CoordinatorEnvironment environment) {
        String replica =
            config
                .holderId()
                .orElseGet(
                    () -> HolderIds.hostPidRandom(environment.variables(), new SecureRandom()));
        BlockingIo rosterIo =
            new BlockingIo(
                "lease-roster",
                DeadlineLeaseStorage.THREADS,
                environment.threads(),
                environment.metrics());
        return new ShardQuota(
            replica,
            shards,
            slack,
            new FileLeaseRoster(config.path(), config.mode(), rosterIo, config.ioTimeout()),
            config.ttl(),
            config.renewInterval(),
            environment);
      }

      @Override
      public Optional<RosterInfo.Inspector> rosterInspector(Map<String, String> variables) {
        return Optional.of(() -> FileLeaseRoster.inspect(config.path()));
      }

      @Override
      public Coordinator create(CoordinatorEnvironment environment) {
        String holder =
            config
                .holderId()
                .orElseGet(
                    () -> HolderIds.hostPidRandom(environment.variables(), new SecureRandom()));
        FileLeaseStorage storage =
            new DeadlineLeaseStorage(
                new FileLeaseFile(config.path(), config.mode()),
                io(environment),
                config.ioTimeout());
        return new FileLeaseCoordinator(storage, holder, config, environment, Sleeper.REAL);
      }

      @Override
      public Optional<LeaseInspector> inspector(Clock clock, Map<String, String> variables) {
        return Optional.of(new FileLeaseInspector(config.path(), clock));
      }
    };
  }
}
