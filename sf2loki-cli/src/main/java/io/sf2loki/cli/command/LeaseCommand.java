package io.sf2loki.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.spi.LeaseInfo;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lease show}: what the coordinator's lease says, without joining the election. */
@Command(
    name = "lease",
    mixinStandardHelpOptions = true,
    description = "Inspect the leader lease.",
    synopsisSubcommandLabel = "show")
public final class LeaseCommand {

  @Mixin GlobalOptions global;

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print the lease: type, holder, acquired, renewed, expires, epoch, state.")
  int show(
      @Mixin GlobalOptions options,
      @Option(names = "--json", description = "Print JSON.") boolean json) {
    Sf2LokiConfig config = options.bindConfig();
    PrintWriter out = options.environment().out();
    Optional<LeaseInfo> info =
        config
            .coordinator()
            .inspector(Clock.systemUTC(), options.environment().environment())
            .map(i -> i.inspect());
    if (info.isEmpty()) {
      out.println(
          json
              ? StateCommand.render(
                  StateCommand.jsonObject().put("type", config.coordinatorType()).putNull("state"))
              : "coordinate.type is "
                  + config.coordinatorType()
                  + ": there is no lease (a single instance always leads)");
      return 0;
    }
    LeaseInfo lease = info.get();
    if (json) {
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
      out.println(StateCommand.render(node));
      return 0;
    }
    row(out, "type", lease.coordinatorType());
    row(out, "location", lease.location());
    row(out, "state", lease.state().name());
    row(out, "holder", lease.holder().orElse("-"));
    row(out, "acquired", lease.acquired().map(Object::toString).orElse("-"));
    row(out, "renewed", lease.renewed().map(Object::toString).orElse("-"));
    row(out, "expires", lease.expires().map(Object::toString).orElse("-"));
    row(out, "epoch", lease.epoch().isPresent() ? Long.toString(lease.epoch().getAsLong()) : "-");
    lease.detail().ifPresent(d -> row(out, "detail", d));
    return 0;
  }

  private static void row(PrintWriter out, String name, String value) {
    out.printf("%-9s %s%n", name, value);
  }
}
