package io.sf2loki.source.eventlogobjects;

import static io.sf2loki.salesforce.testing.RecordingSourceContext.afterWaits;
import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.testing.RecordingSourceContext;
import io.sf2loki.testkit.salesforce.EventObjects;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BigObjectDrainIT {

  static final String LOGIN_EVENT =
      "objects = [{name = LoginEvent, settle_window = 0}], poll_interval = 1m, lookback = 1h";

  final ObjectsHarness h = new ObjectsHarness();

  @AfterEach
  void close() throws Exception {
    h.close();
  }

  private List<String> rows(int tieSize) {
    EventObjects objects = h.sf.eventObjects();
    objects.define("LoginEvent", "EventDate", true);
    Instant t = ObjectsHarness.START.minusSeconds(900);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      expected.add(objects.add("LoginEvent", t.minusSeconds(300 - i)));
    }
    expected.addAll(objects.addTieGroup("LoginEvent", t, tieSize));
    for (int i = 1; i <= 250; i++) {
      expected.add(objects.add("LoginEvent", t.plusSeconds(i / 2)));
    }
    return expected;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 200, 5000})
  void aNewestFirstDrainDeliversEveryRowOnceInAscendingOrder(int tieSize) throws Exception {
    List<String> expected = rows(tieSize);

    RecordingSourceContext first = h.run(LOGIN_EVENT, afterWaits(3));
    RecordingSourceContext restarted = h.run(LOGIN_EVENT, afterWaits(2));

    assertThat(ObjectsHarness.ids(first.lines())).containsExactlyElementsOf(expected);
    assertThat(restarted.lines()).isEmpty();
    assertThat(h.sf.queries()).noneMatch(q -> q.contains(" ASC"));
    assertThat(h.sf.queries().stream().mapToInt(String::length).max().orElse(0)).isLessThan(16_000);
  }

  @Test
  void theCatchUpCapBoundsEachDrainAndLaterCyclesFetchTheRest() throws Exception {
    List<String> expected = rows(5000);

    RecordingSourceContext ctx = h.run(LOGIN_EVENT + ", max_catchup_records = 700", afterWaits(3));

    List<String> delivered = ObjectsHarness.ids(ctx.lines());
    assertThat(delivered).containsExactlyElementsOf(expected);
    // the cursor travels at least every page of 200 rows
    List<Integer> perToken = new ArrayList<>();
    int since = 0;
    for (var e : ctx.entries()) {
      since += e.isCheckpointOnly() ? 0 : 1;
      if (e.checkpoint().isPresent()) {
        perToken.add(since);
        since = 0;
      }
    }
    assertThat(perToken).allMatch(n -> n <= 200);
  }

  @Test
  void ascendingOrderOnABigObjectIsRejectedAndCountedWithAHint() throws Exception {
    h.sf.eventObjects().define("LoginEvent", "EventDate", true);
    h.sf.eventObjects().add("LoginEvent", ObjectsHarness.START.minusSeconds(60));

    RecordingSourceContext ctx =
        h.run(
            "objects = [{name = LoginEvent, big_object = false}], poll_interval = 1m",
            afterWaits(2));

    assertThat(ctx.lines()).isEmpty();
    assertThat(
            h.counter(
                "sf2loki_soql_poll_errors", "source", "eventlog_objects", "object", "LoginEvent"))
        .isEqualTo(2); // the startup poll and the one after the first interval
  }
}
