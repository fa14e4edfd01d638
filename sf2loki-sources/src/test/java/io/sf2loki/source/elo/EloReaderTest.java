package io.sf2loki.source.elo;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.rest.SalesforceRestClient;
import io.sf2loki.salesforce.testing.MutableClock;
import io.sf2loki.testkit.salesforce.EventLogObjects;
import io.sf2loki.testkit.salesforce.FakeSalesforce;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reader against the fake org's Event Log Objects: random visibility lag, ties of thousands of
 * rows on one millisecond, queryMore batches, restarts from the committed checkpoint.
 */
class EloReaderTest {

  private static final Instant START = EloFake.START;
  private static final Duration SETTLE = Duration.ofMinutes(50);
  private static final List<String> OBJECTS =
      List.of("LoginEventLog", "ApiTotalUsageEventLog", "ReportEventLog");
  private static final List<String> FIELDS =
      List.of("Timestamp", "RequestIdentifier", "UserIdentifier", "SourceIp", "Status");

  private final EloFake fake = new EloFake();
  private final MutableClock clock = fake.clock;
  private final FakeSalesforce sf = fake.sf;
  private final SalesforceRestClient rest = fake.rest;
  private final EloReader reader = new EloReader(q -> rest.query(q).records());
  private final Map<String, EloCheckpoint> committed = new HashMap<>();
  private final List<String> received = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    fake.close();
  }

  /** 20 days of rows up to two hours ahead of the clock, a tie of 5,000 on one millisecond. */
  private List<String> populate() {
    EventLogObjects elo = sf.eventLogObjects();
    Random random = new Random(7);
    List<String> all = new ArrayList<>();
    for (String object : OBJECTS) {
      elo.define(object);
      Instant first = START.minus(Duration.ofDays(20));
      long span = Duration.ofDays(20).plusHours(2).toMillis();
      for (int i = 0; i < 2500; i++) {
        Instant at = first.plusMillis((long) (random.nextDouble() * span));
        all.add(id(elo.add(object, at, Map.of())));
      }
      // a millisecond shared by a few rows, then a crowd that spans several pages
      elo.addTie(object, START.minus(Duration.ofDays(3)), 7).forEach(r -> all.add(id(r)));
    }
    elo.addTie("LoginEventLog", START.plus(Duration.ofMinutes(30)), 5000)
        .forEach(r -> all.add(id(r)));
    return all;
  }

  private static String id(EventLogObjects.Row r) {
    return (String) r.fields().get("RequestIdentifier");
  }

  /** One poll of every object, committing after each page, as the source does. */
  private void pollAll() throws Exception {
    Instant upTo = clock.instant().minus(SETTLE);
    for (String object : OBJECTS) {
      EloCheckpoint from =
          committed.getOrDefault(object, new EloCheckpoint(START.minus(Duration.ofDays(21))));
      reader.read(
          object,
          FIELDS,
          from,
          upTo,
          (rows, after) -> {
            rows.forEach(r -> received.add(r.path("RequestIdentifier").asText()));
            committed.put(object, after);
          },
          () -> false);
    }
  }

  @Test
  void everyRowOfSeveralObjectsArrivesExactlyOnceDespiteTiesAndTheVisibilityLag() throws Exception {
    List<String> all = populate();

    for (int step = 0; step < 24; step++) { // four hours in ten-minute polls
      pollAll();
      clock.advance(Duration.ofMinutes(10));
    }

    assertThat(received).hasSameSizeAs(all).containsExactlyInAnyOrderElementsOf(all);
    assertThat(sf.eventLogObjects().refusals()).isZero();
  }

  @Test
  void aRestartFromTheCommittedCheckpointLosesNothingAndResendsAtMostOnePage() throws Exception {
    List<String> all = populate();
    clock.advance(Duration.ofHours(4));
    int[] pages = {0};
    int[] lost = {0};
    EloReader.PageSink crashing =
        (rows, after) -> {
          rows.forEach(r -> received.add(r.path("RequestIdentifier").asText()));
          if (++pages[0] == 2) {
            lost[0] = rows.size();
            throw new IllegalStateException("kill -9 before the commit");
          }
          committed.put("LoginEventLog", after);
        };
    try {
      reader.read(
          "LoginEventLog",
          FIELDS,
          new EloCheckpoint(START.minus(Duration.ofDays(21))),
          clock.instant().minus(SETTLE),
          crashing,
          () -> false);
    } catch (IllegalStateException expected) {
      // the process died with page 2 (the one ending in the 5,000-row tie) shipped, not committed
    }

    pollAll(); // a new run: every object from its committed checkpoint

    Map<String, Long> counts =
        received.stream()
            .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    long duplicates = received.size() - counts.size();
    assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(all);
    // exactly the uncommitted page again: its rows before the tie plus that whole millisecond
    assertThat(duplicates).isEqualTo(lost[0]).isGreaterThan(5000);
    assertThat(sf.eventLogObjects().refusals()).isZero();
  }

  @Test
  void noQueryCarriesMoreThanTwoTimestampFiltersOrAnId() throws Exception {
    populate();
    clock.advance(Duration.ofHours(4));

    pollAll();

    assertThat(sf.queries())
        .isNotEmpty()
        .allSatisfy(
            q -> {
              assertThat(q.split("Timestamp [<>=]", -1).length - 1).isLessThanOrEqualTo(2);
              assertThat(q).doesNotContain(" Id").doesNotContain("OFFSET").doesNotContain("!=");
            });
  }

  @Test
  void nothingSettledMeansNoQueryAndTheSameCheckpoint() throws Exception {
    sf.eventLogObjects().define("LoginEventLog");
    EloCheckpoint from = new EloCheckpoint(START.minus(SETTLE));

    EloCheckpoint after =
        reader.read("LoginEventLog", FIELDS, from, START.minus(SETTLE), (r, a) -> {}, () -> false);

    assertThat(after).isEqualTo(from);
    assertThat(sf.queries()).isEmpty();
  }

  @Test
  void theCheckpointTokenRoundTripsAndACorruptOneIsATypedError() {
    EloCheckpoint cp = new EloCheckpoint(Instant.parse("2026-06-30T10:00:00.001Z"));

    assertThat(cp.encode()).isEqualTo("{\"from\": \"2026-06-30T10:00:00.001Z\", \"v\": 1}");
    assertThat(EloCheckpoint.decode(cp.encode())).isEqualTo(cp);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> EloCheckpoint.decode("{\"v\":1}"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
