package io.sf2loki.tck;

import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Coordinator;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.ShardBalance;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The adapter a lease coordinator gives {@link ShardCoordinatorProperties}: several shards, a lease
 * each, and replica processes that each run one coordinator per shard under one {@link
 * ShardBalance} (the backend's roster and quota), all on the {@link SimulatedTime} the election was
 * made with. The kit calls these methods from the test thread while every contender is asleep.
 */
public interface ShardElection extends AutoCloseable {

  /** The shards' names. */
  List<String> shards();

  /** The lease's ttl (or duration): how long a dead replica's leases and roster entry live. */
  Duration ttl();

  /** How often leaders renew, standbys poll and replicas heartbeat the roster. */
  Duration renewInterval();

  /** {@code coordinate.shard_slack} of the replicas. */
  int slack();

  /** A new replica process with identity {@code identity}: its balance, not used yet. */
  Replica join(String identity) throws Exception;

  /**
   * Another process's instance of {@code shard}'s checkpoint store: an {@link EpochFloor} and an
   * {@link io.sf2loki.spi.EpochClaim}.
   */
  CheckpointStore openStore(String shard) throws Exception;

  /** {@code shard}'s lease as stored now, for failure messages. */
  String describeLease(String shard);

  @Override
  void close() throws IOException;

  /** One replica process. */
  interface Replica {

    /** The process's shard balance, shared by its coordinators; closed by a graceful stop. */
    ShardBalance balance();

    /**
     * A fresh coordinator of {@code shard} under {@link #balance()} (the engine makes one per
     * campaign), reading {@code floor} at every acquire.
     */
    Coordinator coordinator(String shard, Optional<EpochFloor> floor) throws Exception;

    /** From now on the process writes neither leases nor the roster: {@code kill -9}. */
    void kill();
  }
}
