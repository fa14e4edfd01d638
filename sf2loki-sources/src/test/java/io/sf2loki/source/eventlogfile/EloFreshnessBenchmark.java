package io.sf2loki.source.eventlogfile;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.ConfigReader;
import io.sf2loki.pipeline.Backoff;
import io.sf2loki.salesforce.auth.ClientCredentialsGrant;
import io.sf2loki.salesforce.auth.OAuthTokenProvider;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.source.eventlogobjects.EventLogObjectsConfig;
import io.sf2loki.source.eventlogobjects.EventLogObjectsSource;
import io.sf2loki.source.eventlogobjects.EventLogObjectsSourceProvider;
import io.sf2loki.source.eventlogobjects.SimulatedDelivery;
import io.sf2loki.spi.NamedThreadFactory;
import io.sf2loki.spi.Secret;
import io.sf2loki.spi.SourceEnvironment;
import io.sf2loki.testkit.loki.DecodedEntry;
import io.sf2loki.testkit.loki.DecodedStream;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

/**
 * Freshness of one category, event time → accepted by the fake Loki, through EventLogFile (Hourly
 * files) and through its Event Log Object, each with its source's defaults, on a simulated clock.
 * Not a test: {@code just bench-elo-freshness [key=value ...]} (docs/performance.md).
 *
 * <p>The same events — {@code per_hour} (60) Login events an hour for {@code days} (2) days, spread
 * evenly over each hour as the fake's Hourly file lays them out — are served twice. As
 * EventLogFile: the Hourly {@code Login} file of hour H is created (listed, downloadable) at H + 1
 * h + a random 3–6 h, the documented availability. As Event Log Object: one {@code LoginEventLog}
 * row per event, queryable after the fake's random per-row lag of 0–45 min. The fake org, the fake
 * Loki and the source share one {@link MutableClock}; the source's waits move it ({@link
 * SimulatedDelivery}), its pages are pushed at once, so Loki's acceptance time is the simulated
 * time of the poll that read the row. Percentiles over the events of the run's whole hours after
 * the first {@code warmup} (6 h), every one of which must arrive.
 */
public final class EloFreshnessBenchmark {

  private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");

  private EloFreshnessBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = new LinkedHashMap<>();
    for (String a : args) {
      o.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
    }
    int days = Integer.parseInt(o.getOrDefault("days", "2"));
    int perHour = Integer.parseInt(o.getOrDefault("per_hour", "60"));
    Duration warmup = Duration.ofHours(Long.parseLong(o.getOrDefault("warmup_h", "6")));
    long seed = Long.parseLong(o.getOrDefault("seed", "1"));
    Instant dataEnd = T0.plus(Duration.ofDays(days));
    List<Duration> elf = eventLogFile(dataEnd, perHour, warmup, seed);
    List<Duration> elo = eventLogObject(dataEnd, perHour, warmup, seed);
    long expected = (Duration.between(T0.plus(warmup), dataEnd).toHours()) * perHour;
    boolean ok = elf.size() == expected && elo.size() == expected;
    Duration target = Duration.ofMinutes(55);
    ok &= percentile(elo, 0.99).compareTo(target) <= 0;
    System.out.println(
        String.format(
            Locale.ROOT,
            "RESULT freshness, Login, %d events an hour over %d simulated days, event time ->"
                + " accepted by the fake Loki: EventLogFile (Hourly, files 3-6 h after their hour,"
                + " defaults) p50 %s p99 %s max %s (n=%d); Event Log Object LoginEventLog (lag 0-45"
                + " min, defaults: poll_interval 5m at most, settle 50m) p50 %s p99 %s max %s (n=%d); target"
                + " p99 <= settle + 5 min = 55m: %s",
            perHour,
            days,
            minutes(percentile(elf, 0.5)),
            minutes(percentile(elf, 0.99)),
            minutes(percentile(elf, 1)),
            elf.size(),
            minutes(percentile(elo, 0.5)),
            minutes(percentile(elo, 0.99)),
            minutes(percentile(elo, 1)),
            elo.size(),
            ok ? "PASS" : "FAIL (expected " + expected + " events each)"));
    System.exit(ok ? 0 : 1);
  }

  private static List<Duration> eventLogFile(
      Instant dataEnd, int perHour, Duration warmup, long seed) throws Exception {
    MutableClock clock = new MutableClock(T0);
    Random random = new Random(seed);
    List<Duration> out = new ArrayList<>();
    try (ElfFixture fx = ElfFixture.onClock(clock);
        FakeLoki loki = loki(clock, T0.plus(warmup), dataEnd, out)) {
      fx.sampleServerClock = false; // the Date header carries real time, not the simulated one
      for (Instant h = T0; h.isBefore(dataEnd); h = h.plus(Duration.ofHours(1))) {
        Duration available = Duration.ofMinutes(180 + random.nextInt(181));
        fx.sf.addLogFile(
            "Login", "Hourly", h, h.plus(Duration.ofHours(1)).plus(available), perHour);
      }
      EventLogFileConfig config =
          ElfFixture.bind(
              "sources.eventlogfile { enabled = true, event_types = [Login], start = \""
                  + T0
                  + "\" }");
      SimulatedDelivery delivery = delivery(clock, dataEnd.plus(Duration.ofHours(8)), loki);
      fx.source(config).run(delivery);
    }
    return out;
  }

  private static List<Duration> eventLogObject(
      Instant dataEnd, int perHour, Duration warmup, long seed) throws Exception {
    MutableClock clock = new MutableClock(T0);
    List<Duration> out = new ArrayList<>();
    try (FakeSalesforce sf =
            FakeSalesforce.builder()
                .clientId("cid")
                .clientSecret("secret")
                .clock(clock)
                .seed(seed)
                .build();
        FakeLoki loki = loki(clock, T0.plus(warmup), dataEnd, out);
        CloseableHttpClient http =
            SalesforceHttpClients.create(Duration.ofSeconds(30), Optional.empty())) {
      sf.eventLogObjects().define("LoginEventLog");
      for (Instant h = T0; h.isBefore(dataEnd); h = h.plus(Duration.ofHours(1))) {
        // the same event times as the fake's Hourly file of hour h (LogFileCsv.rowTime)
        long step = Duration.ofHours(1).toMillis() / (perHour + 1);
        for (int i = 0; i < perHour; i++) {
          sf.eventLogObjects().add("LoginEventLog", h.plusMillis(step * (i + 1)), Map.of());
        }
      }
      SimpleMeterRegistry metrics = new SimpleMeterRegistry();
      SalesforceRestClient rest =
          new SalesforceRestClient(
              http,
              new OAuthTokenProvider(
                  http,
                  sf.baseUrl(),
                  new ClientCredentialsGrant("cid", Secret.of("secret")),
                  Duration.ofHours(1),
                  clock,
                  Backoff.NONE,
                  d -> {},
                  metrics),
              "60.0",
              t -> {}); // no Date sampling: the Date header is real time
      ConfigReader reader =
          new ConfigLoader(EloFreshnessBenchmark.class.getClassLoader(), Map.of())
              .loadString(
                  "sources.eventlog_objects { enabled = true, objects = [{name = LoginEventLog}],"
                      + " start = \""
                      + T0
                      + "\" }")
              .reader();
      EventLogObjectsConfig config =
          EventLogObjectsConfig.bind(reader.section("sources.eventlog_objects"));
      reader.throwIfInvalid();
      Random random = new Random(seed);
      SourceEnvironment env =
          new SourceEnvironment(
              clock,
              () -> clock.instant().getEpochSecond() * 1_000_000_000L + clock.instant().getNano(),
              random,
              new NamedThreadFactory("elo-fresh"),
              metrics,
              Map.of("job", "sf2loki"));
      SimulatedDelivery delivery = delivery(clock, dataEnd.plus(Duration.ofHours(2)), loki);
      try (EventLogObjectsSource source =
          EventLogObjectsSourceProvider.create(
              config, rest, clock::instant, env, () -> random.nextDouble(-1, 1), () -> {})) {
        source.run(delivery);
      }
    }
    return out;
  }

  private static SimulatedDelivery delivery(MutableClock clock, Instant end, FakeLoki loki) {
    return new SimulatedDelivery(
        clock,
        end,
        loki.pushUri(),
        Map.of(),
        c -> {},
        by -> {
          clock.advance(by);
          return clock.instant();
        });
  }

  /** A fake Loki on {@code clock} recording, for events in [from, to), acceptance − event time. */
  private static FakeLoki loki(MutableClock clock, Instant from, Instant to, List<Duration> out)
      throws java.io.IOException {
    return FakeLoki.builder()
        .clock(clock)
        .limits(LokiLimits.defaults().withOutOfOrderWindow(Duration.ofDays(2)))
        .onStored(
            streams -> {
              Instant now = clock.instant();
              for (DecodedStream s : streams) {
                for (DecodedEntry e : s.entries()) {
                  Instant at = Instant.EPOCH.plusNanos(e.timestampNanos());
                  if (!at.isBefore(from) && at.isBefore(to)) {
                    synchronized (out) {
                      out.add(Duration.between(at, now));
                    }
                  }
                }
              }
            })
        .start();
  }

  private static Duration percentile(List<Duration> sample, double p) {
    if (sample.isEmpty()) {
      return Duration.ZERO;
    }
    List<Duration> sorted = new ArrayList<>(sample);
    sorted.sort(null);
    int i = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
  }

  private static String minutes(Duration d) {
    return String.format(Locale.ROOT, "%.1f min", d.toMillis() / 60_000.0);
  }
}
