package io.sf2loki.cli.command;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.LaneConfig;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.loki.LokiSink;
import io.sf2loki.loki.LokiSinkProvider;
import io.sf2loki.loki.ReplayJournal;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.pipeline.Sleeper;
import io.sf2loki.spi.SinkEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code deadletter replay}: re-push entries Loki rejected for good, once the cause is fixed. */
@Command(
    name = "deadletter",
    mixinStandardHelpOptions = true,
    description = "Work with the dead-letter file (sink.loki.dead_letter_file).",
    synopsisSubcommandLabel = "replay")
public final class DeadLetterCommand {

  /** The override that sends entries rejected again to a file of their own, not the one read. */
  static final String DEAD_LETTER_OVERRIDE = "SF2LOKI_SINK__LOKI__DEAD_LETTER_FILE";

  @Mixin GlobalOptions global;

  @Spec CommandSpec spec;

  /**
   * Replays FILE through the configured sink, recording in {@code FILE.replay} where each record
   * went and which ones Loki stored, so that running it again stores nothing twice. Entries
   * rejected again are dropped and written to {@code FILE.rejected}, never to the file being read.
   * Exit 0 when every entry was accepted or had been before, 1 when some were rejected again or
   * left unconfirmed, lines were malformed, or the sink kept failing.
   */
  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description = {
        "Push the entries of a dead-letter file to Loki again (the daemon may keep running).",
        "Entries rejected again go to FILE.rejected. FILE.replay records what was pushed and",
        "stored, so running it again pushes nothing twice."
      })
  int replay(
      @Mixin GlobalOptions options,
      @Parameters(paramLabel = "FILE", description = "A dead-letter file (JSON lines).") Path file,
      @Option(
              names = "--attempts",
              paramLabel = "N",
              defaultValue = "5",
              description =
                  "Attempts per batch while Loki fails retryably (default: ${DEFAULT-VALUE}).")
          int attempts)
      throws IOException, InterruptedException {
    if (attempts < 1) {
      throw new ParameterException(
          spec.commandLine(), "--attempts must be at least 1, not " + attempts);
    }
    if (!Files.isRegularFile(file)) {
      throw new CommandFailedException("dead-letter file " + file + " does not exist");
    }
    Path rejected = file.resolveSibling(file.getFileName() + ".rejected");
    CliEnvironment environment = options.environment();
    Map<String, String> variables = new HashMap<>(environment.environment());
    variables.put(DEAD_LETTER_OVERRIDE, rejected.toAbsolutePath().toString());
    Sf2LokiConfig config =
        Sf2LokiConfig.bind(
            new ConfigLoader(environment.classLoader(), variables).load(options.configFile()),
            environment.providers());
    if (!(config.sink() instanceof LokiSinkProvider.LokiFactory loki)) {
      throw new CommandFailedException(
          "deadletter replay needs sink.type = "
              + LokiSinkProvider.TYPE
              + ": the dead-letter file is the Loki sink's");
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    RandomGenerator random = RandomGenerator.getDefault();
    Clock clock = Clock.systemUTC();
    LaneConfig lanes = config.lanes();
    DeadLetterReplay.Outcome outcome;
    try (ReplayJournal journal = ReplayJournal.open(file, clock);
        LokiSink sink =
            loki.createForReplay(
                new SinkEnvironment(
                    clock, registry, random, ConfiguredEngine.promotedLabels(config)),
                journal)) {
      outcome =
          new DeadLetterReplay(
                  sink,
                  journal,
                  registry,
                  Backoff.exponential(lanes.retryMinBackoff(), lanes.retryMaxBackoff(), random),
                  Sleeper.SYSTEM,
                  attempts,
                  lanes.maxEntries(),
                  lanes.maxBytes(),
                  lanes.maxRetryAfter())
              .replay(file);
    }
    return report(environment.out(), file, rejected, outcome);
  }

  private static int report(
      PrintWriter out, Path file, Path rejected, DeadLetterReplay.Outcome outcome) {
    out.println(
        "deadletter replay: "
            + outcome.replayed()
            + " entries of "
            + file
            + " replayed"
            + (outcome.skipped() > 0 ? ", " + outcome.skipped() + " already replayed, skipped" : "")
            + (outcome.rejectedAgain() > 0
                ? ", " + outcome.rejectedAgain() + " rejected again (written to " + rejected + ")"
                : "")
            + (outcome.unconfirmed() > 0
                ? ", "
                    + outcome.unconfirmed()
                    + " unconfirmed (written to "
                    + rejected
                    + ": an earlier replay that did not finish pushed them where Loki now refuses"
                    + " them, and may have stored them; check Loki before replaying that file)"
                : "")
            + (outcome.malformed().isEmpty()
                ? ""
                : ", " + outcome.malformed().size() + " malformed lines skipped"));
    for (String line : outcome.malformed()) {
      out.println("deadletter replay: skipped " + line);
    }
    return outcome.rejectedAgain() > 0
            || outcome.unconfirmed() > 0
            || !outcome.malformed().isEmpty()
        ? 1
        : 0;
  }
}
