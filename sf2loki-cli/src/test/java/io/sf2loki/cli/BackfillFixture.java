package io.sf2loki.cli;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.shape.CanonicalJson;
import io.sf2loki.spi.CheckpointStore;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.testkit.TestTiming;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.Fault;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import io.sf2loki.testkit.salesforce.LogFileCsv;
import io.sf2loki.testkit.salesforce.LogFileSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A daemon's configuration over a fake org and a fake Loki, its state file, and the backfill's
 * document next to it.
 */
final class BackfillFixture implements AutoCloseable {

  final FakeSalesforce salesforce =
      FakeSalesforce.builder().clientId("cid").clientSecret("secret").build();
  final FakeLoki loki;
  final Path dir;
  final Path config;
  final Path daemonState;

  /** The single backfill document of every window that earlier versions kept. */
  final Path legacyBackfillState;

  /** The EventLogFile source of the default fixture. */
  static final String ELF =
      "sources.eventlogfile { enabled = true, event_types = [Login, API], poll_interval = 1s }";

  BackfillFixture(Path dir) throws IOException {
    this(dir, ELF);
  }

  /**
   * @param sources the {@code sources} lines of the daemon's configuration
   */
  BackfillFixture(Path dir, String sources) throws IOException {
    this.dir = dir;
    this.loki = FakeLoki.start();
    this.daemonState = dir.resolve("state.json");
    this.legacyBackfillState = dir.resolve("state-backfill.json");
    this.config = dir.resolve("sf2loki.conf");
    Files.writeString(
        config,
        """
        salesforce {
          auth_mode = client_credentials
          login_url = "%s"
          client_id = cid
          client_secret = secret
        }
        %s
        sink.loki { url = "%s", batch { flush_interval = 100ms, max_entries = 100 } }
        state { store = file, file.path = "%s" }
        service {
          shutdown_grace = %dms
          unready_after_sink_failing = 2s
          permanent_failure_attempts = 1
        }
        """
            .formatted(
                salesforce.baseUrl(),
                sources,
                loki.baseUri(),
                daemonState,
                TestTiming.seconds(5).toMillis()),
        StandardCharsets.UTF_8);
  }

  /** An Hourly file of {@code rows} rows created at {@code created}. */
  LogFileSpec file(String type, Instant created, long rows) {
    return salesforce.addLogFile(
        type,
        "Hourly",
        created.minus(70, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.HOURS),
        created,
        rows);
  }

  /**
   * The progress document of one source and window, as the CLI reference names it: {@code
   * state-backfill-<source>-<since>-<until>.json}, the instants in the basic ISO form, {@code open}
   * for an omitted {@code --until}.
   */
  Path backfillState(String source, Instant since, Instant until) {
    return dir.resolve(
        "state-backfill-"
            + source
            + "-"
            + basic(since)
            + "-"
            + (until == null ? "open" : basic(until))
            + ".json");
  }

  private static String basic(Instant t) {
    return t.toString().replace("-", "").replace(":", "");
  }

  /** The lines the files' rows become, in file order. */
  List<String> lines(List<LogFileSpec> files) {
    List<String> lines = new ArrayList<>();
    for (LogFileSpec f : files) {
      LogFileCsv csv = salesforce.csv(f);
      for (long i = 0; i < f.rows(); i++) {
        lines.add(CanonicalJson.write(csv.expectedRow(i)));
      }
    }
    return lines;
  }

  List<String> linesInLoki(String eventType) {
    return loki.entries().stream()
        .filter(e -> eventType.equals(e.labels().get("event_type")))
        .map(AcceptedEntry::line)
        .toList();
  }

  CliRun backfill(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "--config";
    all[1] = config.toString();
    all[2] = "backfill";
    System.arraycopy(args, 0, all, 3, args.length);
    return CliRun.of(all);
  }

  /**
   * Runs {@code backfill} with slow Loki pushes until {@code landed} lines are in Loki, then lets
   * Loki fail until the run gives up; returns the aborted run, Loki healthy again.
   */
  CliRun abortMidRun(int landed, Supplier<CliRun> backfill) throws Exception {
    loki.addFault(new Fault.Latency(Duration.ofMillis(100), 1_000));
    CompletableFuture<CliRun> first = CompletableFuture.supplyAsync(backfill);
    await().atMost(TestTiming.seconds(60)).until(() -> loki.lines().size() >= landed);
    loki.clearFaults();
    loki.addFault(Fault.status(500, 100_000));
    CliRun aborted = first.get(TestTiming.seconds(60).toMillis(), TimeUnit.MILLISECONDS);
    loki.clearFaults();
    return aborted;
  }

  /**
   * Opens the file store on {@code path} as a single-instance daemon does and reads it, so this
   * test holds its lifetime lock until the store is closed.
   */
  CheckpointStore holdLock(Path path) throws IOException {
    String hocon =
        Files.readString(config, StandardCharsets.UTF_8) + "\nstate.file.path = \"" + path + "\"\n";
    Sf2LokiConfig bound =
        Sf2LokiConfig.bind(
            new ConfigLoader(getClass().getClassLoader(), Map.of()).loadString(hocon),
            getClass().getClassLoader());
    CheckpointStore store =
        bound
            .store()
            .create(new StoreEnvironment(true, Clock.systemUTC(), new SimpleMeterRegistry()));
    store.loadAll();
    return store;
  }

  /** The number after {@code name=} (or {@code name~}) on the line starting with {@code prefix}. */
  static long field(String output, String prefix, String name) {
    for (String line : output.split("\n")) {
      if (line.startsWith(prefix)) {
        Matcher m = Pattern.compile("\\b" + name + "[=~](\\d+)").matcher(line);
        if (m.find()) {
          return Long.parseLong(m.group(1));
        }
      }
    }
    throw new AssertionError("no " + name + " on a '" + prefix + "' line in:\n" + output);
  }

  @Override
  public void close() {
    loki.close();
    salesforce.close();
  }
}
