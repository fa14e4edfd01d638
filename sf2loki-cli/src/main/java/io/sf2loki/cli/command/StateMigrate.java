package io.sf2loki.cli.command;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.engine.shard.MigrationPlan;
import io.sf2loki.engine.shard.MigrationPlan.Move;
import io.sf2loki.engine.shard.MigrationPlan.Target;
import io.sf2loki.engine.shard.MigrationRefusedException;
import io.sf2loki.engine.shard.StateMigration;
import io.sf2loki.source.checkpoint.PythonCheckpoints;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.spi.StoreLockedException;
import java.io.PrintWriter;
import java.time.Clock;

/**
 * {@code state migrate}: the Python sf2loki's checkpoint document into sf2loki's documents, with
 * the same running-daemon guard as every state command, and a report of what moves where.
 */
final class StateMigrate {

  private final Clock clock;
  private final GlobalOptions options;

  StateMigrate(Clock clock, GlobalOptions options) {
    this.clock = clock;
    this.options = options;
  }

  int run(boolean dryRun, boolean keepInvalid, boolean force) {
    Shards shards = options.bindShards();
    RunningDaemonGuard guard = new RunningDaemonGuard(clock, options.environment().environment());
    for (Shard shard : shards.all()) {
      guard.check(shard.config(), "migrate", force);
    }
    // Under noop each store takes its single-instance lock at its first read: the source's is
    // the one a Python daemon still running under noop holds.
    boolean singleInstance = !shards.first().config().isCoordinated() && !force;
    StoreEnvironment environment =
        new StoreEnvironment(singleInstance, clock, new SimpleMeterRegistry());
    PrintWriter out = options.environment().out();
    try (StateMigration migration =
        StateMigration.open(shards, environment, new PythonCheckpoints())) {
      MigrationPlan plan = migration.plan(keepInvalid);
      print(plan, dryRun, out);
      if (!plan.refusals().isEmpty()) {
        throw new CommandFailedException(
            new MigrationRefusedException(plan.source(), plan.refusals()).getMessage());
      }
      if (!dryRun) {
        migration.apply(plan);
      }
      out.println(summary(plan, dryRun));
      return 0;
    } catch (StoreLockedException e) {
      throw new CommandFailedException(
          e.getMessage()
              + "\nRefusing to migrate while an sf2loki instance (Python or this one) holds the"
              + " lock. Stop it first, or pass --force.",
          e);
    }
  }

  private static void print(MigrationPlan plan, boolean dryRun, PrintWriter out) {
    boolean single = plan.targets().size() == 1 && plan.targets().get(0).inPlace();
    out.println(
        "sf2loki: "
            + (dryRun ? "dry run: " : "")
            + (single
                ? "single org: " + plan.source() + " is sf2loki's document as it is"
                : "migrating "
                    + plan.source()
                    + plan.sourceEpoch().stream()
                        .mapToObj(e -> " (fence epoch " + e + ")")
                        .findFirst()
                        .orElse("")
                    + " into "
                    + plan.targets().size()
                    + " org document(s)"));
    for (Target target : plan.targets()) {
      if (!target.inPlace()) {
        out.print("org " + target.org().orElseThrow() + " -> " + target.location());
        if (target.migratedFrom().isPresent()) {
          out.println(
              ": already migrated from "
                  + target.migratedFrom().get()
                  + " (holds "
                  + target.kept().size()
                  + " checkpoint(s)); not written");
          continue;
        }
        out.println(target.moves().isEmpty() && target.kept().isEmpty() ? ": nothing to move" : "");
      }
      for (Move move : target.moves()) {
        out.println("  " + verb(move, target.inPlace()) + describe(move));
      }
      for (String key : target.kept()) {
        out.println("  keep     " + key + " (the org's document already holds it)");
      }
      target
          .epoch()
          .ifPresent(
              e ->
                  out.println(
                      "  fence epoch "
                          + e
                          + " (above the source's "
                          + plan.sourceEpoch().getAsLong()
                          + ": a writer of the old epoch cannot commit here)"));
    }
    if (!plan.leftBehind().isEmpty()) {
      out.println("left behind (no org takes them; the source keeps them):");
      plan.leftBehind().forEach(l -> out.println("  " + l.key() + "  " + l.reason()));
    }
  }

  private static String verb(Move move, boolean inPlace) {
    return switch (move.kind()) {
      case AS_IS -> inPlace ? "keep     " : "move     ";
      case CONVERTED -> "convert  ";
      case UNKNOWN_NAMESPACE -> inPlace ? "unknown  " : "move     ";
      case INVALID -> "invalid  ";
    };
  }

  private static String describe(Move move) {
    String keys = move.from().equals(move.to()) ? move.to() : move.from() + " -> " + move.to();
    String why =
        move.from().equals(move.to()) ? "" : " (unprefixed: the first org's single-org position)";
    return keys + why + move.note().map(n -> " (" + n + ")").orElse("");
  }

  private static String summary(MigrationPlan plan, boolean dryRun) {
    String prefix = dryRun ? "sf2loki: dry run: " : "sf2loki: ";
    String tail = dryRun ? "; nothing was written" : "";
    Target first = plan.targets().get(0);
    if (first.inPlace()) {
      int converted = first.written().size();
      return converted == 0
          ? prefix
              + "nothing to migrate: "
              + first.moves().size()
              + " checkpoint(s) are read as they are; nothing was written"
          : prefix
              + (dryRun ? "would convert " : "converted ")
              + converted
              + " checkpoint(s) in place; the other "
              + (first.moves().size() - converted)
              + " are read as they are"
              + tail;
    }
    if (plan.settled()) {
      return prefix + "nothing to migrate: every org was migrated already; nothing was written";
    }
    long orgs = plan.targets().stream().filter(Target::writes).count();
    return prefix
        + (dryRun ? "would migrate " : "migrated ")
        + plan.moved()
        + " checkpoint(s) into "
        + orgs
        + " org document(s); "
        + plan.source()
        + (dryRun ? " stays as it is" : " was not changed")
        + tail;
  }
}
