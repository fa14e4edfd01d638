package io.sf2loki.coordinate.filelease;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.coordinate.balance.Roster;
import io.sf2loki.coordinate.balance.RosterDocument;
import io.sf2loki.coordinate.balance.RosterException;
import io.sf2loki.coordinate.balance.ShardQuota;
import io.sf2loki.coordinate.support.FaultyLeaseStorage;
import io.sf2loki.coordinate.support.StoreKind;
import io.sf2loki.deadline.BlockingIo;
import io.sf2loki.files.FileMode;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.CoordinatorEnvironment;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.ShardBalance;
import io.sf2loki.tck.ShardElection;
import io.sf2loki.tck.SimulatedTime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The shard kit's adapter for file_lease: a lease file and a real state file per shard in one
 * directory ({@code leader-<shard>.lease}, {@code state-<shard>.json}) and the roster beside them
 * ({@code leader-roster.lease}); each replica's lease storages and roster can be killed.
 */
final class FileLeaseShards implements ShardElection {

  private final SimulatedTime time;
  private final Path dir;
  private final List<String> shards;
  private final int slack;
  private final BlockingIo io =
      new BlockingIo(
          "lease-roster", 4, new NamedThreadFactory("roster-io"), new SimpleMeterRegistry());
  private final Map<String, SimpleMeterRegistry> metrics = new ConcurrentHashMap<>();

  FileLeaseShards(Path dir, SimulatedTime time, List<String> shards, int slack) {
    this.dir = dir;
    this.time = time;
    this.shards = List.copyOf(shards);
    this.slack = slack;
  }

  Path lease(String shard) {
    return dir.resolve("leader-" + shard + ".lease");
  }

  Path roster() {
    return FileLeaseRoster.pathFor(dir.resolve("leader.lease"));
  }

  /** The meters of the replica {@code identity}. */
  SimpleMeterRegistry metrics(String identity) {
    return metrics.computeIfAbsent(identity, i -> new SimpleMeterRegistry());
  }

  @Override
  public List<String> shards() {
    return shards;
  }

  @Override
  public Duration ttl() {
    return FileLeaseFixture.TTL;
  }

  @Override
  public Duration renewInterval() {
    return FileLeaseFixture.RENEW;
  }

  @Override
  public int slack() {
    return slack;
  }

  @Override
  public Replica join(String identity) {
    KillableRoster roster =
        new KillableRoster(
            new FileLeaseRoster(
                dir.resolve("leader.lease"), FileMode.OWNER_ONLY, io, Duration.ofSeconds(5)));
    CoordinatorEnvironment env =
        new CoordinatorEnvironment(
            time.clock(), time.ticker(), Optional.empty(), metrics(identity), Map.of());
    ShardQuota quota =
        new ShardQuota(
            identity,
            shards,
            slack,
            roster,
            ttl(),
            renewInterval(),
            env,
            call -> time.start(identity + "/roster", call::run));
    List<FaultyLeaseStorage> storages = new CopyOnWriteArrayList<>();
    return new Replica() {
      @Override
      public ShardBalance balance() {
        return quota;
      }

      @Override
      public Coordinator coordinator(String shard, Optional<EpochFloor> floor) {
        FaultyLeaseStorage storage = new FaultyLeaseStorage(new FileLeaseFile(lease(shard)), time);
        storages.add(storage);
        if (roster.killed) {
          FileLeaseShards.kill(storage);
        }
        FileLeaseConfig config =
            new FileLeaseConfig(lease(shard), ttl(), renewInterval(), Optional.empty());
        CoordinatorEnvironment own =
            new CoordinatorEnvironment(
                    time.clock(), time.ticker(), floor, metrics(identity), Map.of())
                .withShard(shard, quota);
        return new FileLeaseCoordinator(storage, identity, config, own, time::sleep);
      }

      @Override
      public void kill() {
        roster.killed = true;
        storages.forEach(FileLeaseShards::kill);
      }
    };
  }

  private static void kill(FaultyLeaseStorage storage) {
    storage.pauseBeforeNextWrite(Duration.ZERO);
    storage.readsFail(true);
    storage.writesFail(true);
  }

  @Override
  public CheckpointStore openStore(String shard) {
    return StoreKind.fileStore(dir.resolve("state-" + shard + ".json"));
  }

  @Override
  public String describeLease(String shard) {
    return new FileLeaseReader().read(lease(shard)).toString();
  }

  @Override
  public void close() {
    io.close();
  }

  /** A roster that fails every call once its process is killed. */
  private static final class KillableRoster implements Roster {
    private final Roster delegate;
    volatile boolean killed;

    KillableRoster(Roster delegate) {
      this.delegate = delegate;
    }

    private void check() throws RosterException {
      if (killed) {
        throw new RosterException(location(), "killed", false, null);
      }
    }

    @Override
    public RosterDocument read() throws RosterException {
      check();
      return delegate.read();
    }

    @Override
    public RosterDocument heartbeat(String replica, Instant expiresAt, Instant now)
        throws RosterException {
      check();
      return delegate.heartbeat(replica, expiresAt, now);
    }

    @Override
    public void leave(String replica, Instant now) throws RosterException {
      check();
      delegate.leave(replica, now);
    }

    @Override
    public String location() {
      return delegate.location();
    }
  }
}
