package io.sf2loki.source.eventlogobjects;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.source.elo.EloReader;
import io.sf2loki.testkit.loki.AcceptedEntry;
import io.sf2loki.testkit.loki.DecodedStream;
import io.sf2loki.testkit.loki.FakeLoki;
import io.sf2loki.testkit.loki.LokiLimits;
import io.sf2loki.testkit.salesforce.EventLogObjects;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Event Log Objects read through kill -9 and restarts, against the figures of issue #31. Not a
 * test: {@code just bench-elo [key=value ...]} (docs/performance.md).
 *
 * <p>This process holds the fake org (rules enforced, per-row visibility lag 0–45 min, refused
 * queries counted), the fake Loki and the simulated clock both read. It fills {@code objects} (10)
 * Event Log Objects with {@code rows} (1,000,000) rows over {@code days} (20) days, each object
 * with one tie of {@code tie} (5,000) rows on one millisecond, and starts {@link EloBenchChild} —
 * the eventlog_objects source with its defaults (poll_interval 5m, settle 50m) from the first day —
 * as a separate JVM. The child moves the simulated clock by each of its waits over this process's
 * control port, so simulated days pass in seconds. {@code kills} (5) times this process sends the
 * child SIGKILL ({@link Process#destroyForcibly}) and starts a new one, which resumes from the
 * checkpoint file; the kills take turns: at the first push of a tie's page (at least a page of
 * rows), at a random simulated instant, and at the first push after a random instant — a push kill
 * strikes when Loki has stored the page but before its 204 reaches the child, so the page is in
 * Loki and its checkpoint is not committed. The random instants fall one in each equal part of the
 * run. At the end: rows lost, duplicates re-sent, refused queries, and Salesforce API calls
 * (counted by the fake) per simulated day against 1.2 × (rows / page size + objects × polls).
 */
public final class EloRestartBenchmark {

  static final List<String> OBJECTS =
      List.of(
          "LoginEventLog",
          "ApiTotalUsageEventLog",
          "AuraRequestEventLog",
          "ReportEventLog",
          "RestApiEventLog",
          "UriEventLog",
          "SoapApiEventLog",
          "ContentTransferEventLog",
          "LightningPageViewEventLog",
          "BulkApiEventLog");

  private static final Pattern REQUEST_ID =
      Pattern.compile("\"RequestIdentifier\"\\s*:\\s*\"([^\"]+)\"");
  private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");

  /** API calls, object polls and pages read in one simulated day. */
  private record Day(long calls, long polls, long pages, long tiePages) {}

  private final MutableClock clock = new MutableClock(T0);
  private final Map<Long, long[]> dayStart = new TreeMap<>(); // day -> {calls, queries index}
  private FakeSalesforce sf;

  /** When a kill strikes. */
  private enum Kill {
    /** The first push of at least a page (a tie), between Loki's acceptance and the commit. */
    LARGE_PAGE,
    /** At a random simulated instant, whatever the child is doing. */
    ANY_TIME,
    /**
     * The first push after a random simulated instant, between Loki's acceptance and the commit.
     */
    PUSH
  }

  private record Armed(Process child, Instant after, int minEntries) {}

  private final AtomicReference<Armed> armed = new AtomicReference<>();
  private final List<Integer> killedPages = new CopyOnWriteArrayList<>();
  private volatile int largestPush;

  private void arm(Process child, Instant after, int minEntries) {
    armed.set(new Armed(child, after, minEntries));
  }

  private void disarm() {
    armed.set(null);
  }

  /**
   * Loki stored a push and is about to answer 204: the armed kill strikes here, so the child's page
   * is in Loki but its checkpoint is not committed — the worst moment, whose page comes again.
   */
  private void stored(List<DecodedStream> streams) {
    int n = streams.stream().mapToInt(s -> s.entries().size()).sum();
    largestPush = Math.max(largestPush, n);
    Armed a = armed.get();
    if (a != null
        && n >= a.minEntries()
        && !clock.instant().isBefore(a.after())
        && armed.compareAndSet(a, null)) {
      a.child().destroyForcibly(); // SIGKILL before the 204 reaches it
      killedPages.add(n);
    }
  }

  private EloRestartBenchmark() {
    dayStart.put(0L, new long[] {0, 0});
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> o = new LinkedHashMap<>();
    for (String a : args) {
      o.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
    }
    boolean ok = new EloRestartBenchmark().run(o);
    System.exit(ok ? 0 : 1);
  }

  private boolean run(Map<String, String> o) throws Exception {
    int rows = Integer.parseInt(o.getOrDefault("rows", "1000000"));
    int objectCount = Integer.parseInt(o.getOrDefault("objects", "10"));
    int days = Integer.parseInt(o.getOrDefault("days", "20"));
    int tie = Integer.parseInt(o.getOrDefault("tie", "5000"));
    int kills = Integer.parseInt(o.getOrDefault("kills", "5"));
    long seed = Long.parseLong(o.getOrDefault("seed", "1"));
    List<String> objects = OBJECTS.subList(0, objectCount);
    Instant dataEnd = T0.plus(Duration.ofDays(days));
    // settle 50m + a poll interval with its jitter + margin: every row is read by then
    Instant end = dataEnd.plus(Duration.ofHours(2));
    Random random = new Random(seed);
    sf =
        FakeSalesforce.builder()
            .clientId("bench")
            .clientSecret("bench-secret")
            .clock(clock)
            .seed(seed)
            .build();
    EventLogObjects elo = sf.eventLogObjects();
    long startFill = System.nanoTime();
    Map<Long, Long> rowsPerDay = new TreeMap<>();
    for (String object : objects) {
      elo.define(object);
      int n = rows / objectCount;
      Instant tieAt =
          T0.plusMillis((long) (random.nextDouble() * Duration.ofDays(days).toMillis()));
      elo.addTie(object, tieAt, tie);
      rowsPerDay.merge(day(tieAt), (long) tie, Long::sum);
      for (int i = tie; i < n; i++) {
        Instant ts = T0.plusMillis((long) (random.nextDouble() * Duration.ofDays(days).toMillis()));
        elo.add(object, ts, Map.of());
        rowsPerDay.merge(day(ts), 1L, Long::sum);
      }
    }
    say(
        "filled %d objects x %d rows (one tie of %d each) over %d days in %.1f s",
        objectCount, rows / objectCount, tie, days, (System.nanoTime() - startFill) / 1e9);
    LokiLimits d = LokiLimits.defaults();
    try (FakeLoki loki =
            FakeLoki.builder()
                .clock(clock)
                .limits(d.withOutOfOrderWindow(Duration.ofDays(2)))
                .onStored(this::stored)
                .start();
        Control control = new Control()) {
      Path dir = Files.createTempDirectory("sf2loki-bench-elo-");
      Path state = dir.resolve("checkpoints.json");
      Path log = dir.resolve("child.log");
      List<String> command =
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx256m",
              "-XX:+UseSerialGC",
              "-cp",
              System.getProperty("java.class.path"),
              EloBenchChild.class.getName(),
              sf.baseUrl().toString(),
              loki.pushUri().toString(),
              control.url(),
              state.toString(),
              T0.toString(),
              end.toString(),
              String.join(",", objects),
              Long.toString(seed));
      List<Instant> killAt = new ArrayList<>();
      Duration span = Duration.between(T0, end);
      for (int k = 0; k < kills; k++) {
        double part = (k + random.nextDouble()) / (kills + 1);
        killAt.add(T0.plusMillis((long) (part * span.toMillis())));
      }
      say("control %s, log %s", control.url(), log);
      long wallStart = System.nanoTime();
      Process child = start(command, log);
      List<String> killed = new ArrayList<>();
      for (int k = 0; k < killAt.size(); k++) {
        Kill how = Kill.values()[k % Kill.values().length];
        Instant at = how == Kill.LARGE_PAGE ? T0 : killAt.get(k);
        if (how == Kill.ANY_TIME) {
          while (clock.instant().isBefore(at) && child.isAlive()) {
            Thread.sleep(5);
          }
          if (child.isAlive()) {
            child.destroyForcibly(); // SIGKILL
          }
        } else {
          arm(child, at, how == Kill.LARGE_PAGE ? EloReader.PAGE : 1);
        }
        child.waitFor(60, TimeUnit.MINUTES);
        disarm();
        if (child.exitValue() == 0) {
          break; // the run ended before this kill
        }
        String what = how + " at simulated " + clock.instant();
        killed.add(what);
        say("kill -9 (pid %d) %s; restarting", child.pid(), what);
        child = start(command, log);
      }
      if (!child.waitFor(60, TimeUnit.MINUTES) || child.exitValue() != 0) {
        say("FAILED: the child did not end cleanly; log %s", log);
        System.out.println(Files.readString(log));
        return false;
      }
      double wall = (System.nanoTime() - wallStart) / 1e9;
      return report(elo, loki, objects, rowsPerDay, rows, kills, killed, wall, dataEnd);
    }
  }

  private boolean report(
      EventLogObjects elo,
      FakeLoki loki,
      List<String> objects,
      Map<Long, Long> rowsPerDay,
      int rows,
      int kills,
      List<String> killed,
      double wall,
      Instant dataEnd) {
    Set<String> expected = new HashSet<>();
    for (String object : objects) {
      elo.rows(object).forEach(r -> expected.add((String) r.fields().get("RequestIdentifier")));
    }
    Map<String, Integer> seen = new HashMap<>();
    for (AcceptedEntry e : loki.entries()) {
      seen.merge(requestId(e), 1, Integer::sum);
    }
    long lost = expected.stream().filter(id -> !seen.containsKey(id)).count();
    long extraStored = seen.values().stream().mapToLong(n -> n - 1).sum();
    long resent = loki.stats().duplicates() + extraStored;
    long calls = sf.apiUsage().used();
    List<String> queries = sf.queries();
    Map<Long, Day> perDay = perDay(queries, calls);
    say("kills: %s", killed);
    double worst = 0;
    long worstDay = -1;
    for (Map.Entry<Long, Day> e : perDay.entrySet()) {
      Day day = e.getValue();
      long dayRows = rowsPerDay.getOrDefault(e.getKey(), 0L);
      double bound = 1.2 * ((double) dayRows / EloReader.PAGE + day.polls());
      double ratio = day.calls() / bound;
      say(
          "day %2d: %,d rows, %,d object polls, %,d full pages (%,d tie re-reads): %,d API calls,"
              + " bound %,.0f (%.2f of it)",
          e.getKey() + 1,
          dayRows,
          day.polls(),
          day.pages(),
          day.tiePages(),
          day.calls(),
          bound,
          ratio);
      if (ratio > worst) {
        worst = ratio;
        worstDay = e.getKey() + 1;
      }
    }
    long polls = perDay.values().stream().mapToLong(Day::polls).sum();
    double totalBound = 1.2 * ((double) rows / EloReader.PAGE + polls);
    long refused = elo.refusals();
    long pageBound =
        killedPages.stream().mapToLong(Integer::longValue).sum()
            + (long) (killed.size() - killedPages.size()) * largestPush;
    boolean ok =
        lost == 0 && resent <= pageBound && refused == 0 && calls <= totalBound && worst <= 1;
    say(
        "RESULT eventlog_objects restarts: %,d rows in %d objects over %d days (ties of %,d),"
            + " %d kill -9 + restart of the reader process, %.0f s wall for %.1f simulated days:"
            + " %,d lost (bound 0); %,d re-sent (bound one page per restart: the pages in Loki"
            + " but not committed at the push kills %s, plus the largest push %,d for each other"
            + " kill = %,d); %d"
            + " refused queries (bound 0); %,d API calls in all, bound 1.2 x (rows / %d + %,d"
            + " object polls) = %,.0f (%.2f of it); worst day %d at %.2f of its bound; %s",
        rows,
        objects.size(),
        Duration.between(T0, dataEnd).toDays(),
        elo.rows(objects.get(0)).stream()
            .collect(java.util.stream.Collectors.groupingBy(r -> r.timestamp()))
            .values()
            .stream()
            .mapToInt(List::size)
            .max()
            .orElse(0),
        killed.size(),
        wall,
        Duration.between(T0, clock.instant()).toMinutes() / 1440.0,
        lost,
        resent,
        killedPages,
        largestPush,
        pageBound,
        refused,
        calls,
        EloReader.PAGE,
        polls,
        totalBound,
        calls / totalBound,
        worstDay,
        worst,
        ok ? "PASS" : "FAIL");
    if (refused > 0) {
      say("refused: %s", elo.refusedQueries().subList(0, (int) Math.min(5, refused)));
    }
    if (kills != killed.size()) {
      say("only %d of %d kills happened before the run ended", killed.size(), kills);
    }
    return ok;
  }

  /**
   * Splits the run's queries and API calls by simulated day: a range query ({@code >= ... <})
   * followed by no {@code Timestamp =} re-read was the short page that ends an object's poll, one
   * followed by a re-read was a full page (the reader re-reads the last millisecond of every full
   * page).
   */
  private Map<Long, Day> perDay(List<String> queries, long calls) {
    Map<Long, Day> out = new TreeMap<>();
    List<Map.Entry<Long, long[]>> marks = new ArrayList<>(dayStart.entrySet());
    for (int i = 0; i < marks.size(); i++) {
      long[] from = marks.get(i).getValue();
      long[] to =
          i + 1 < marks.size() ? marks.get(i + 1).getValue() : new long[] {calls, queries.size()};
      long range = 0;
      long pins = 0;
      for (String q : queries.subList((int) from[1], (int) to[1])) {
        if (q.contains(" AND Timestamp < ")) {
          range++;
        } else if (q.contains("WHERE Timestamp = ")) {
          pins++;
        }
      }
      long polls = range - pins;
      out.put(marks.get(i).getKey(), new Day(to[0] - from[0], polls, pins, pins));
    }
    return out;
  }

  /** The row's RequestIdentifier: in the line, else the structured metadata request_id. */
  static String requestId(AcceptedEntry e) {
    Matcher m = REQUEST_ID.matcher(e.line());
    if (m.find()) {
      return m.group(1);
    }
    String id = e.metadata().get("request_id");
    if (id == null) {
      throw new IllegalStateException("an entry without a request id: " + e);
    }
    return id;
  }

  private static long day(Instant t) {
    return Duration.between(T0, t).toDays();
  }

  private static Process start(List<String> command, Path log) throws IOException {
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  private static void say(String format, Object... args) {
    System.out.println(String.format(Locale.ROOT, format, args));
  }

  /**
   * The simulated clock's control port: {@code GET /now}, {@code POST /advance?nanos=N}. Marks each
   * simulated day's first API call and query, for the per-day figures.
   */
  private final class Control implements AutoCloseable {
    private final HttpServer server;

    Control() throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/now", x -> answer(x, clock.instant().toString()));
      server.createContext(
          "/advance",
          x -> {
            try {
              advance(x);
            } catch (RuntimeException | IOException e) {
              e.printStackTrace();
              throw e;
            }
          });
      server.start();
    }

    private void advance(HttpExchange x) throws IOException {
      long nanos = Long.parseLong(x.getRequestURI().getQuery().substring("nanos=".length()));
      Instant next;
      synchronized (clock) {
        Instant now = clock.instant();
        next = now.plusNanos(Math.max(0, nanos));
        for (long dd = day(now) + 1; dd <= day(next); dd++) {
          dayStart.put(dd, new long[] {sf.apiUsage().used(), sf.queries().size()});
        }
        clock.set(next);
      }
      answer(x, clock.instant().toString());
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void answer(HttpExchange x, String body) throws IOException {
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(200, b.length);
      x.getResponseBody().write(b);
      x.close();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
