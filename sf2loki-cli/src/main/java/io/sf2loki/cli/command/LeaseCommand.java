package io.sf2loki.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.config.orgs.Shard;
import io.sf2loki.config.orgs.Shards;
import io.sf2loki.spi.LeaseInfo;
import io.sf2loki.spi.RosterInfo;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lease show}: what the coordinator's lease says, without joining the election. */
@Command(
    name = "lease",
    mixinStandardHelpOptions = true,
    description = "Inspect the leader lease (every org's, with orgs).",
    synopsisSubcommandLabel = "show")
public final class LeaseCommand {

  @Mixin GlobalOptions global;

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = {
        "Print the lease: type, holder, acquired, renewed, expires, epoch, state.",
        "With orgs, every org's lease (each org is a shard with a lease of its own), then the",
        "roster of live replicas the orgs are balanced over (text only)."
      })
  int show(
      @Mixin GlobalOptions options,
      @Option(names = "--json", description = "Print JSON.") boolean json) {
    Shards shards = options.bindShards();
    PrintWriter out = options.environment().out();
    if (!shards.multiOrg()) {
      Optional<LeaseInfo> info = inspect(options, shards.first());
      Sf2LokiConfig config = shards.first().config();
      if (info.isEmpty()) {
        out.println(
            json
                ? StateCommand.render(noLease(config))
                : "coordinate.type is "
                    + config.coordinatorType()
                    + ": there is no lease (a single instance always leads)");
      } else if (json) {
        out.println(StateCommand.render(node(info.get())));
      } else {
        print(out, info.get());
      }
      return 0;
    }
    ArrayNode all = StateCommand.jsonArray();
    boolean firstBlock = true;
    for (Shard shard : shards.all()) {
      String org = shard.org().orElseThrow().name();
      Optional<LeaseInfo> info = inspect(options, shard);
      if (json) {
        ObjectNode node = info.map(LeaseCommand::node).orElseGet(() -> noLease(shard.config()));
        all.add(StateCommand.jsonObject().put("org", org).setAll(node));
        continue;
      }
      if (!firstBlock) {
        out.println();
      }
      firstBlock = false;
      row(out, "org", org);
      if (info.isEmpty()) {
        row(out, "type", shard.config().coordinatorType());
        row(out, "state", "-");
        row(out, "detail", "there is no lease (a single instance always leads)");
      } else {
        print(out, info.get());
      }
    }
    if (json) {
      out.println(StateCommand.render(all));
    } else if (shards.all().size() > 1) {
      shards
          .coordinator()
          .rosterInspector(options.environment().environment())
          .ifPresent(roster -> printRoster(out, roster.inspect(), Clock.systemUTC().instant()));
    }
    return 0;
  }

  /** The replicas the orgs are balanced over: each member with its expiry. */
  private static void printRoster(PrintWriter out, RosterInfo roster, Instant now) {
    out.println();
    row(out, "roster", roster.location());
    roster
        .members()
        .forEach(
            (replica, expiry) ->
                row(
                    out,
                    "member",
                    replica + " expires " + expiry + (expiry.isAfter(now) ? "" : " (expired)")));
    roster.detail().ifPresent(d -> row(out, "detail", d));
  }

  private static Optional<LeaseInfo> inspect(GlobalOptions options, Shard shard) {
    return shard
        .config()
        .coordinator()
        .inspector(Clock.systemUTC(), options.environment().environment())
        .map(i -> i.inspect());
  }

  private static ObjectNode noLease(Sf2LokiConfig config) {
    return StateCommand.jsonObject().put("type", config.coordinatorType()).putNull("state");
  }

  private static ObjectNode node(LeaseInfo lease) {
    ObjectNode node = StateCommand.jsonObject();
    node.put("type", lease.coordinatorType());
    node.put("location", lease.location());
    node.put("state", lease.state().name());
    node.put("holder", lease.holder().orElse(null));
    node.put("acquired", lease.acquired().map(Object::toString).orElse(null));
    node.put("renewed", lease.renewed().map(Object::toString).orElse(null));
    node.put("expires", lease.expires().map(Object::toString).orElse(null));
    if (lease.epoch().isPresent()) {
      node.put("epoch", lease.epoch().getAsLong());
    } else {
      node.putNull("epoch");
    }
    node.put("detail", lease.detail().orElse(null));
    return node;
  }

  private static void print(PrintWriter out, LeaseInfo lease) {
    row(out, "type", lease.coordinatorType());
    row(out, "location", lease.location());
    row(out, "state", lease.state().name());
    row(out, "holder", lease.holder().orElse("-"));
    row(out, "acquired", lease.acquired().map(Object::toString).orElse("-"));
    row(out, "renewed", lease.renewed().map(Object::toString).orElse("-"));
    row(out, "expires", lease.expires().map(Object::toString).orElse("-"));
    row(out, "epoch", lease.epoch().isPresent() ? Long.toString(lease.epoch().getAsLong()) : "-");
    lease.detail().ifPresent(d -> row(out, "detail", d));
  }

  private static void row(PrintWriter out, String name, String value) {
    out.printf("%-9s %s%n", name, value);
  }
}
