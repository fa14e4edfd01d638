package io.sf2loki.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.model.CheckpointToken;
import io.sf2loki.source.checkpoint.CheckpointValues;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.Fence;
import io.sf2loki.spi.StoreLockedException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code state show|set|delete|export|import|migrate}: inspect, repair and move checkpoints. */
@Command(
    name = "state",
    mixinStandardHelpOptions = true,
    description = {
      "Inspect and repair checkpoints. Under a lease coordinator every state command refuses"
          + " unless --force: stop the leader and the standby first, or repair with set/delete"
          + " --fence-leader while they run.",
    },
    synopsisSubcommandLabel = "(show | set | delete | export | import | migrate)")
public final class StateCommand {

  static final String RESERVED = CheckpointToken.RESERVED_EPOCH_KEY;
  static final String WRITER = CheckpointToken.RESERVED_WRITER_KEY;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Mixin GlobalOptions global;

  private static final String ORG_HELP =
      "With orgs: the org whose checkpoints to address (keys without their org=<name>: prefix,"
          + " in the org's own document).";

  private static final String FENCE_LEADER_HELP =
      "Repair while the pair runs: claim a higher fence epoch with the write, so the live leader"
          + " stands by at its next commit or fence check (within about a lease ttl) and resumes"
          + " from the repaired value.";

  private final Clock clock = Clock.systemUTC();

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print checkpoints, sorted by key.")
  int show(
      @Mixin GlobalOptions options,
      @Option(names = "--key", paramLabel = "GLOB", description = "Only keys matching this glob.")
          String glob,
      @Option(names = "--json", description = "Print JSON.") boolean json,
      @Option(names = "--org", paramLabel = "NAME", description = ORG_HELP) String org,
      @Option(names = "--force", description = "Bypass the running-daemon guard.") boolean force) {
    Map<String, String> document = withStore(options, org, "show", force, CheckpointStore::loadAll);
    new StatePrinter(options.environment().out()).show(document, glob, json);
    return 0;
  }

  @Command(
      name = "set",
      mixinStandardHelpOptions = true,
      description = "Set one checkpoint in one conditional write.")
  int set(
      @Mixin GlobalOptions options,
      @Parameters(index = "0", paramLabel = "KEY") String key,
      @Parameters(index = "1", paramLabel = "VALUE") String value,
      @Option(names = "--org", paramLabel = "NAME", description = ORG_HELP) String org,
      @Option(names = "--force", description = "Bypass the guards and namespace checks.")
          boolean force,
      @Option(names = "--fence-leader", description = FENCE_LEADER_HELP) boolean fenceLeader) {
    if (fenceLeader && CheckpointToken.isReserved(key)) {
      throw new CommandFailedException("--fence-leader repairs checkpoints, not '" + key + "'");
    }
    if (RESERVED.equals(key)) {
      requireForceForReserved("set", force);
      if (!value.matches("\\d{1,18}")) {
        throw new CommandFailedException(
            "'" + RESERVED + "' must be a non-negative integer (got '" + value + "')");
      }
      EpochLimits.check(shard(options, org).config(), Long.parseLong(value));
    } else if (CheckpointToken.isReserved(key)) {
      throw new CommandFailedException(
          "'"
              + key
              + "' is a reserved internal key ("
              + (WRITER.equals(key)
                  ? "the single-instance writer token"
                  : "an org's document took the legacy positions over")
              + "); refusing to set it");
    } else {
      CheckpointValues.problem(key, value, force)
          .ifPresent(
              p -> {
                throw new CommandFailedException("refusing to set '" + key + "': " + p);
              });
    }
    if (fenceLeader) {
      FencedRepair.Outcome outcome =
          withFencedLeader(options, org, (store, fence) -> store.commit(Map.of(key, value), fence));
      options
          .environment()
          .out()
          .println("sf2loki: set " + key + " = " + value + "; " + outcome.describe());
      return 0;
    }
    withStore(
        options,
        org,
        "set",
        force,
        store -> {
          store.commit(Map.of(key, value), Fence.NONE);
          return null;
        });
    options.environment().out().println("sf2loki: set " + key + " = " + value);
    return 0;
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description = {
        "Delete one checkpoint: its source restarts from its preset/lookback.",
        "Deleting a pubsub:* key creates a real gap, or a replay from the preset."
      })
  int delete(
      @Mixin GlobalOptions options,
      @Parameters(index = "0", paramLabel = "KEY") String key,
      @Option(names = "--org", paramLabel = "NAME", description = ORG_HELP) String org,
      @Option(names = "--force", description = "Bypass the running-daemon guard.") boolean force,
      @Option(names = "--fence-leader", description = FENCE_LEADER_HELP) boolean fenceLeader) {
    if (CheckpointToken.isReserved(key)) {
      if (fenceLeader) {
        throw new CommandFailedException("--fence-leader repairs checkpoints, not '" + key + "'");
      }
      requireForceForReserved("delete", force);
    }
    if (fenceLeader) {
      boolean[] existed = new boolean[1];
      FencedRepair.Outcome outcome =
          withFencedLeader(
              options,
              org,
              (store, fence) -> {
                existed[0] = store.load(key).isPresent();
                store.delete(Set.of(key), fence);
              });
      options
          .environment()
          .out()
          .println(
              (existed[0]
                      ? "sf2loki: deleted " + key + " (its source restarts from preset/lookback)"
                      : "sf2loki: nothing deleted: no checkpoint named " + key)
                  + "; "
                  + outcome.describe());
      return 0;
    }
    boolean existed =
        withStore(
            options,
            org,
            "delete",
            force,
            store -> {
              boolean present = store.load(key).isPresent();
              if (present) {
                store.delete(Set.of(key), Fence.NONE);
              }
              return present;
            });
    PrintWriter out = options.environment().out();
    out.println(
        existed
            ? "sf2loki: deleted "
                + key
                + (RESERVED.equals(key)
                    ? " (the next leader's epoch is computed from the lease alone)"
                    : " (its source restarts from preset/lookback on next run)")
            : "sf2loki: nothing deleted: no checkpoint named " + key);
    return 0;
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = "Write the whole checkpoint document (fence epoch included) as JSON.")
  int export(
      @Mixin GlobalOptions options,
      @Option(
              names = "--output",
              paramLabel = "FILE",
              description = "File to write (default: stdout).")
          Path output,
      @Option(names = "--org", paramLabel = "NAME", description = ORG_HELP) String org,
      @Option(names = "--force", description = "Bypass the running-daemon guard.") boolean force)
      throws IOException {
    Map<String, String> document =
        withStore(options, org, "export", force, CheckpointStore::loadAll);
    String json = JSON.writeValueAsString(new TreeMap<>(document));
    if (output == null) {
      options.environment().out().println(json);
    } else {
      Files.writeString(output, json + "\n", StandardCharsets.UTF_8);
      options
          .environment()
          .out()
          .println("sf2loki: exported " + document.size() + " key(s) to " + output);
    }
    return 0;
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = "Load a document written by 'state export' into the configured store.")
  int importDocument(
      @Mixin GlobalOptions options,
      @Parameters(index = "0", paramLabel = "FILE") Path file,
      @Option(names = "--replace", description = "Replace a non-empty target document.")
          boolean replace,
      @Option(names = "--org", paramLabel = "NAME", description = ORG_HELP) String org,
      @Option(names = "--force", description = "Bypass the running-daemon guard.") boolean force) {
    Map<String, String> imported = ExportedDocument.read(file);
    if (imported.containsKey(RESERVED)) {
      EpochLimits.check(shard(options, org).config(), Long.parseLong(imported.get(RESERVED)));
    }
    int written =
        withStore(
            options,
            org,
            "import",
            force,
            store -> {
              Map<String, String> existing = store.loadAll();
              if (!existing.isEmpty() && !replace) {
                throw new CommandFailedException(
                    "refusing to import into "
                        + store.location()
                        + ": it already holds "
                        + existing.size()
                        + " key(s); pass --replace to overwrite it");
              }
              store.commit(imported, Fence.NONE);
              Set<String> stale = new java.util.HashSet<>(existing.keySet());
              stale.removeAll(imported.keySet());
              if (!stale.isEmpty()) {
                store.delete(stale, Fence.NONE);
              }
              return imported.size();
            });
    options.environment().out().println("sf2loki: imported " + written + " key(s) from " + file);
    return 0;
  }

  @Command(
      name = "migrate",
      mixinStandardHelpOptions = true,
      description = {
        "Move the Python sf2loki's checkpoints (the configured state document, single- or"
            + " multi-org) into sf2loki's documents: with orgs, each org's org=<name>: keys into"
            + " the org's own document, with a fence epoch above the source's. The source is only"
            + " read; a second run changes nothing.",
        "Stop the Python sf2loki (every replica) first."
      })
  int migrate(
      @Mixin GlobalOptions options,
      @Option(names = "--dry-run", description = "Print what would move where; write nothing.")
          boolean dryRun,
      @Option(
              names = "--keep-invalid",
              description =
                  "Carry values their source cannot read as they are (it restarts from its"
                      + " lookback) instead of refusing.")
          boolean keepInvalid,
      @Option(names = "--force", description = "Bypass the running-daemon guard.") boolean force) {
    return new StateMigrate(clock, options).run(dryRun, keepInvalid, force);
  }

  private static void requireForceForReserved(String verb, boolean force) {
    if (!force) {
      throw new CommandFailedException(
          "'"
              + RESERVED
              + "' is a reserved internal key; refusing to "
              + verb
              + " it (with --force, set writes it: the recovery path for a poisoned fence epoch)");
    }
  }

  /** The shard {@code --org} addresses: required with {@code orgs}, refused without. */
  private static Shard shard(GlobalOptions options, String org) {
    return options.bindShards().select(Optional.ofNullable(org));
  }

  private FencedRepair.Outcome withFencedLeader(
      GlobalOptions options, String org, FencedRepair.RepairWrite repair) {
    Shard shard = shard(options, org);
    // No running-daemon guard: fencing the live leader is the point. Opened as a replica would.
    try (CheckpointStore store = StoreSession.open(shard, true, clock)) {
      return new FencedRepair(clock, options.environment().environment())
          .apply(shard.config(), store, repair);
    }
  }

  private <T> T withStore(
      GlobalOptions options,
      String org,
      String command,
      boolean force,
      Function<CheckpointStore, T> operation) {
    Shard shard = shard(options, org);
    // An org's guard inspects the org's own lease: another org's running leader does not matter.
    new RunningDaemonGuard(clock, options.environment().environment())
        .check(shard.config(), command, force);
    try (CheckpointStore store = StoreSession.open(shard, force, clock)) {
      return operation.apply(store);
    } catch (StoreLockedException e) {
      throw new CommandFailedException(
          e.getMessage()
              + "\nRefusing to touch the state while another sf2loki instance holds its lock. Stop"
              + " the running daemon first, or pass --force.",
          e);
    }
  }

  static ObjectNode jsonObject() {
    return JSON.createObjectNode();
  }

  static com.fasterxml.jackson.databind.node.ArrayNode jsonArray() {
    return JSON.createArrayNode();
  }

  static String render(Object value) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render JSON", e);
    }
  }
}
