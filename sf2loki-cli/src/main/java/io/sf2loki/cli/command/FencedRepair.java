package io.sf2loki.cli.command;

import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.EpochClaim;
import io.sf2loki.spi.EpochFloor;
import io.sf2loki.spi.FencedException;
import io.sf2loki.spi.LeaseInfo;
import io.sf2loki.spi.StoreConflictException;
import io.sf2loki.spi.Term;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A checkpoint repair made while the pair runs ({@code --fence-leader}): the CLI becomes, for one
 * write, a leader of a strictly higher epoch than any granted so far. It first claims that epoch (a
 * strictly-upward compare-and-set, so no replica can share it), then writes the repair fenced at
 * it. From then on the live leader's commits are refused as stale, and its lease coordinator's
 * fence check (at each renewal) ends its term even when it commits nothing: it stands by, campaigns
 * again and, as every new term does, starts from what is stored, i.e. the repaired value. Its
 * in-memory positions, older than the repair, are never written back.
 *
 * <p>Claim first, then write: a fenced write alone admits an equal epoch, so a replica that took
 * over with the same epoch between our read of the floor and our write could commit the values it
 * loaded before the repair. With the claim, such a replica is refused instead, or, when it claimed
 * first, our write is refused and nothing but the epoch changed.
 */
final class FencedRepair {

  /** Claims lost to replicas claiming at the same moment before the command gives up. */
  private static final int ATTEMPTS = 3;

  private final Clock clock;
  private final Map<String, String> variables;

  FencedRepair(Clock clock, Map<String, String> variables) {
    this.clock = clock;
    this.variables = variables;
  }

  /** What the repair did, for the command's message. */
  record Outcome(long epoch, Optional<LeaseInfo> lease) {

    String describe() {
      String leader =
          lease
              .filter(l -> l.state() == LeaseInfo.State.HELD)
              .flatMap(LeaseInfo::holder)
              .map(h -> "the leader " + h)
              .orElse("a leader");
      return "the store's fence epoch is now "
          + epoch
          + ", so "
          + leader
          + " stands by at its next commit or fence check (within about a lease ttl) and"
          + " resumes from the repaired value once it leads again";
    }
  }

  /**
   * Claims a new epoch and applies {@code repair} fenced at it.
   *
   * @throws CommandFailedException when the coordinator or the store cannot fence, or a replica
   *     kept claiming higher epochs
   */
  Outcome apply(Sf2LokiConfig config, CheckpointStore store, RepairWrite repair) {
    if (!config.isCoordinated()) {
      throw new CommandFailedException(
          "--fence-leader needs a lease coordinator (coordinate.type file_lease or k8s_lease):"
              + " under noop no epoch fences the daemon. Stop it and repair without"
              + " --fence-leader.");
    }
    if (!(store instanceof EpochFloor floor) || !(store instanceof EpochClaim claim)) {
      throw new CommandFailedException(
          "the store at " + store.location() + " cannot claim an epoch, so it cannot fence");
    }
    Optional<LeaseInfo> lease =
        config.coordinator().inspector(clock, variables).map(inspector -> inspector.inspect());
    long leaseEpoch = lease.map(LeaseInfo::epoch).orElse(OptionalLong.empty()).orElse(0);
    FencedException last = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      long epoch = Math.max(floor.persistedEpoch().orElse(0), leaseEpoch) + 1;
      RepairTerm term = new RepairTerm(epoch);
      try {
        claim.claimEpoch(term);
      } catch (FencedException e) {
        last = e; // a replica claimed this epoch or a higher one first: take the next one
        continue;
      }
      try {
        repair.write(store, term);
      } catch (FencedException | StoreConflictException e) {
        throw new CommandFailedException(
            "a new leader claimed an epoch above "
                + epoch
                + " before the repair was written; nothing but the fence epoch changed. Run the"
                + " command again.",
            e);
      }
      return new Outcome(epoch, lease);
    }
    throw new CommandFailedException(
        "replicas kept claiming higher epochs; the repair was not written after "
            + ATTEMPTS
            + " attempts ("
            + last.getMessage()
            + ")",
        last);
  }

  /** The repair, written with the claimed term as its fence. */
  @FunctionalInterface
  interface RepairWrite {
    void write(CheckpointStore store, Term fence);
  }

  /** The command's one-write term: current for as long as the command runs. */
  private record RepairTerm(long epoch) implements Term {
    @Override
    public String holder() {
      return "sf2loki-cli state repair";
    }

    @Override
    public boolean isCurrent() {
      return true;
    }
  }
}
