package io.sf2loki.daemon.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.Sf2LokiConfig;
import io.sf2loki.daemon.EngineRuns;
import io.sf2loki.engine.ConfiguredEngine;
import io.sf2loki.engine.Engine;
import io.sf2loki.engine.EngineOutcome;
import io.sf2loki.engine.Environments;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.StopTrigger;
import io.sf2loki.testkit.loki.DecodedStream;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.pubsub.FakePubSub;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real composition against the fakes: {@link ConfiguredEngine} built from configuration, as the
 * daemon builds it, with the Pub/Sub source on {@code /event/LoginEventStream} (streaming lane)
 * and, optionally, the EventLogFile source draining a backlog of Hourly files (bulk lane), both
 * into the Loki sink and a fake Loki. Every push the fake stores feeds the recorder (Pub/Sub
 * entries), the floor's recorder (a {@link RawSubscriber}'s entries) or the bulk count (the rest).
 * The fake Loki forgets what it stored every 2 s, so a long drain does not fill the heap.
 */
final class PubSubBenchWorld implements AutoCloseable {

  /** The EventLogFile types of the backlog: none the Pub/Sub topic's category overlaps. */
  static final List<String> TYPES = List.of("API", "URI", "ReportExport");

  /** The ELF backlog: each of {@link #TYPES} × {@code hours} Hourly files × {@code rows}. */
  record Backlog(int hours, long rows) {
    long totalRows() {
      return TYPES.size() * hours * rows;
    }
  }

  final FakeSalesforce salesforce;
  final FakePubSub pubsub;
  final FakeLoki loki;
  private final AtomicLong bulkArrived = new AtomicLong();
  private final AtomicLong pushes = new AtomicLong();
  private volatile FreshnessRecorder floorPushed;
  private final ScheduledExecutorService forgetter =
      Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("bench-loki-forget"));
  private final Path dir;
  private final StopTrigger stop = new StopTrigger();
  private Engine engine;
  private CompletableFuture<EngineOutcome> run;

  /**
   * The fake as every run of the benchmark configures it: Salesforce's 60 s idle rule, not the
   * fake's 2 s for tests, or a subscriber starved of CPU for 2 s on a loaded machine loses its
   * stream and the run its floor. A positive {@code rtt} puts the round trip of a link to
   * Salesforce between the fake and every subscriber (half each way). The fake keeps its events for
   * {@code retention}: Salesforce's 72 hours, or less for a run that publishes more than a heap
   * holds.
   */
  static FakePubSub.Builder fakePubSub(Duration rtt, Duration retention) {
    FakePubSub.Builder b =
        FakePubSub.builder()
            .standardTopics()
            .idleTimeout(Duration.ofSeconds(60))
            .retention(retention);
    return rtt.isZero() ? b : b.networkDelay(rtt.dividedBy(2));
  }

  PubSubBenchWorld(FreshnessRecorder recorder, Duration rtt, Duration retention)
      throws IOException {
    dir = Files.createTempDirectory("bench-pubsub");
    salesforce = FakeSalesforce.builder().clientId("bench").clientSecret("secret").build();
    pubsub =
        fakePubSub(rtt, retention)
            .tokens(t -> salesforce.isValidToken(t) || RawSubscriber.TOKEN.equals(t))
            .seed(1)
            .start();
    loki =
        FakeLoki.builder()
            .recording(FakeLoki.PushRecording.HEADERS_ONLY)
            .keepEntries(false)
            .onStored(streams -> stored(streams, recorder))
            .start();
    forgetter.scheduleWithFixedDelay(loki::reset, 2, 2, TimeUnit.SECONDS);
  }

  private void stored(List<DecodedStream> streams, FreshnessRecorder recorder) {
    long now = System.nanoTime();
    pushes.incrementAndGet();
    for (DecodedStream s : streams) {
      String source = s.labels().get("source");
      if ("pubsub".equals(source)) {
        recorder.arrived(List.of(s), now);
      } else if (RawSubscriber.SOURCE.equals(source)) {
        FreshnessRecorder floor = floorPushed;
        if (floor != null) {
          floor.arrived(List.of(s), now);
        }
      } else {
        bulkArrived.addAndGet(s.entries().size());
      }
    }
  }

  /**
   * Records the pushes of a {@link RawSubscriber} of this world (its entries' {@code source} label)
   * into {@code pushed}, so that the floor is measured beside sf2loki, in the same conditions.
   */
  void floorInto(FreshnessRecorder pushed) {
    floorPushed = pushed;
  }

  /** Adds the backlog's files, ending two hours ago, oldest first. */
  void addBacklog(Backlog backlog) {
    Instant end = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(2, ChronoUnit.HOURS);
    for (int h = backlog.hours(); h > 0; h--) {
      Instant logDate = end.minus(h, ChronoUnit.HOURS);
      for (String type : TYPES) {
        salesforce.addLogFile(
            type, "Hourly", logDate, logDate.plus(70, ChronoUnit.MINUTES), backlog.rows());
      }
    }
  }

  /**
   * Starts the engine: the Pub/Sub source always, the EventLogFile source when {@code elf}; {@code
   * extra} is appended to the configuration (e.g. {@code sink.loki.batch.flush_interval = 200ms}).
   */
  void startEngine(boolean elf, String extra) {
    String hocon =
        """
        salesforce {
          auth_mode = client_credentials
          login_url = "%s"
          client_id = bench
          client_secret = secret
        }
        sources.eventlogfile {
          enabled = %s
          event_types = [%s]
          interval = Hourly
          lookback = 48h
        }
        sources.pubsub {
          enabled = true
          endpoint = "%s"
          plaintext = true
          topics = ["%s"]
          replay_preset = EARLIEST
        }
        sink.loki.url = "%s"
        state.file.path = "%s"
        %s
        """
            .formatted(
                salesforce.baseUrl(),
                elf,
                String.join(", ", TYPES),
                pubsub.target(),
                FakePubSub.LOGIN,
                loki.baseUri(),
                dir.resolve("state.json"),
                extra);
    ClassLoader loader = getClass().getClassLoader();
    Sf2LokiConfig config =
        Sf2LokiConfig.bind(new ConfigLoader(loader, Map.of()).loadString(hocon), loader);
    engine =
        ConfiguredEngine.create(config, Environments.engine(new SimpleMeterRegistry()), Map.of());
    run = EngineRuns.runAsync(engine, stop);
  }

  /** Bulk (non-Pub/Sub) entries the fake Loki stored so far. */
  long bulkArrived() {
    return bulkArrived.get();
  }

  /** Pushes the fake Loki stored so far, from sf2loki and from a raw subscriber beside it. */
  long pushes() {
    return pushes.get();
  }

  /** Whether the engine ended on its own (a failure: it should run until closed). */
  boolean engineEnded() {
    return run != null && run.isDone();
  }

  @Override
  public void close() throws ExecutionException, TimeoutException {
    if (engine != null) {
      stop.requestStop();
      try {
        run.get(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      engine.close();
    }
    forgetter.shutdownNow();
    pubsub.close();
    salesforce.close();
    loki.close();
  }
}
