package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.loki.TimeWindowConfig.FuturePolicy;
import io.sf2loki.loki.TimeWindowConfig.LatePolicy;
import io.sf2loki.loki.WindowPlan.Action;
import io.sf2loki.loki.WindowPlan.Placement;
import io.sf2loki.loki.WindowPlan.Reason;
import io.sf2loki.model.LogEntry;
import io.sf2loki.model.StringMap;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WindowPlannerTest {

  static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  static final StringMap LOGIN =
      StringMap.of("event_type", "Login", "job", "sf2loki", "source", "eventlogfile");

  final StreamNewest newest = new StreamNewest();

  WindowPlanner planner(TimeWindowConfig config) {
    return new WindowPlanner(config, newest);
  }

  WindowPlanner planner() {
    return planner(TimeWindowConfig.defaults());
  }

  static LogEntry at(Instant t, String line) {
    return LogEntry.of(WindowPlanner.nanos(t), LOGIN, line, Map.of(), Optional.empty());
  }

  static Instant hoursAgo(double h) {
    return NOW.minus(Duration.ofMinutes((long) (h * 60)));
  }

  static StringMap late(int k) {
    return StringMap.of(
        "event_type",
        "Login",
        "job",
        "sf2loki",
        "late",
        Integer.toString(k),
        "source",
        "eventlogfile");
  }

  @Test
  void onTimeEntriesAreSentAsTheyAreAndRaiseTheirStreamsNewest() {
    List<LogEntry> batch = List.of(at(hoursAgo(4), "a"), at(hoursAgo(3.5), "b"));
    WindowPlan plan = planner().plan(batch, NOW);
    assertThat(plan.send()).isSameAs(batch);
    assertThat(plan.placements()).isEmpty();
    assertThat(newest.get(LOGIN)).isEqualTo(WindowPlanner.nanos(hoursAgo(3.5)));
  }

  @Test
  void aBatchSpanningMoreThanTheWindowIsOnTimeBecauseEachStreamIsSentInTimeOrder() {
    planner().plan(List.of(at(hoursAgo(5), "seed")), NOW);
    WindowPlan plan =
        planner().plan(List.of(at(hoursAgo(2), "newer"), at(hoursAgo(5.5), "older")), NOW);
    assertThat(plan.placements()).isEmpty();
  }

  @Test
  void aStreamNotWrittenSinceStartIsUnknownAndAcceptsAnything() {
    WindowPlan plan = planner().plan(List.of(at(hoursAgo(100), "old")), NOW);
    assertThat(plan.placements()).isEmpty();
  }

  @Test
  void anEntryFurtherBehindThanTheWindowIsRoutedToTheFirstLateStream() {
    planner().plan(List.of(at(hoursAgo(4), "h-4")), NOW);
    LogEntry late = at(hoursAgo(6), "h-6");
    WindowPlan plan = planner().plan(List.of(late), NOW);
    LogEntry sent = plan.send().get(0);
    assertThat(sent.labels()).isEqualTo(late(1));
    assertThat(sent.timestampNanos()).isEqualTo(late.timestampNanos());
    assertThat(sent.line()).isEqualTo("h-6");
    assertThat(plan.placements().get(sent))
        .isEqualTo(new Placement(late, sent, Reason.TOO_FAR_BEHIND, Action.ROUTED));
    assertThat(newest.get(late(1))).isEqualTo(late.timestampNanos());
  }

  @Test
  void theNextLateFileOfALaterHourFollowsIntoTheSameLateStream() {
    WindowPlanner p = planner();
    p.plan(List.of(at(hoursAgo(2), "live")), NOW);
    p.plan(List.of(at(hoursAgo(6), "first late file")), NOW);
    WindowPlan plan = p.plan(List.of(at(hoursAgo(5), "second late file")), NOW);
    assertThat(plan.send().get(0).labels()).isEqualTo(late(1));
  }

  @Test
  void anEntryBehindTheFirstLateStreamTooGoesToTheNextOne() {
    WindowPlanner p = planner();
    p.plan(List.of(at(hoursAgo(1), "live")), NOW);
    p.plan(List.of(at(hoursAgo(5), "late")), NOW);
    WindowPlan plan = p.plan(List.of(at(hoursAgo(30), "backfill")), NOW);
    assertThat(plan.send().get(0).labels()).isEqualTo(late(2));
  }

  @Test
  void lateEntriesArePlacedOldestFirstSoOneLateStreamTakesAWholeFile() {
    WindowPlanner p = planner();
    p.plan(List.of(at(hoursAgo(1), "live")), NOW);
    // In batch order, "b" would claim late="1" and "a", more than the window older, would not fit.
    WindowPlan plan =
        p.plan(List.of(at(hoursAgo(4), "b"), at(hoursAgo(6), "a"), at(hoursAgo(3), "c")), NOW);
    assertThat(plan.send()).extracting(LogEntry::line).containsExactly("b", "a", "c");
    assertThat(plan.send()).extracting(e -> e.labels().get("late")).containsOnly("1");
  }

  @Test
  void aBatchPlannedAgainIsComparedWithItsStreamsBeforeTheBatchNotWithItself() {
    WindowPlanner p = planner();
    p.plan(List.of(at(hoursAgo(3), "live")), NOW);
    List<LogEntry> file = List.of(at(hoursAgo(3.5), "old end"), at(hoursAgo(2), "new end"));
    WindowPlan first = p.plan(file, NOW);
    newest.learned(StringMap.of("job", "other"), 1); // a lesson elsewhere: plans are redone
    WindowPlan again = p.replan(file, first, NOW);
    assertThat(again.placements()).isEmpty();
    assertThat(again.version()).isNotEqualTo(first.version());
  }

  @Test
  void aBatchPlannedAgainAfterALessonAboutItsStreamIsRouted() {
    WindowPlanner p = planner();
    List<LogEntry> file = List.of(at(hoursAgo(6), "late"));
    WindowPlan first = p.plan(file, NOW); // stream unknown: on time
    assertThat(first.placements()).isEmpty();
    newest.learned(LOGIN, WindowPlanner.nanos(hoursAgo(3)));
    WindowPlan again = p.replan(file, first, NOW);
    assertThat(again.send().get(0).labels()).isEqualTo(late(1));
  }

  @Test
  void whenEveryLateStreamIsTooFarAheadTheEntryIsRetimestampedToItsStreamsNewest() {
    WindowPlanner p = planner(TimeWindowConfig.defaults().withLateStreams(1));
    p.plan(List.of(at(hoursAgo(1), "live")), NOW);
    p.plan(List.of(at(hoursAgo(5), "late")), NOW);
    LogEntry older = at(hoursAgo(30), "older still");
    WindowPlan plan = p.plan(List.of(older), NOW);
    LogEntry sent = plan.send().get(0);
    assertThat(sent.labels()).isEqualTo(LOGIN);
    assertThat(sent.timestampNanos()).isEqualTo(WindowPlanner.nanos(hoursAgo(1)));
    assertThat(sent.metadata()).containsEntry("event_time", hoursAgo(30).toString());
    assertThat(plan.placements().get(sent).action()).isEqualTo(Action.RETIMESTAMPED);
  }

  @Test
  void retimestampPolicyKeepsTheEventTimeAndDoesNotMoveTheStreamsWindow() {
    WindowPlanner p = planner(TimeWindowConfig.defaults().withLatePolicy(LatePolicy.RETIMESTAMP));
    p.plan(List.of(at(hoursAgo(4), "live")), NOW);
    WindowPlan plan = p.plan(List.of(at(hoursAgo(6), "late")), NOW);
    LogEntry sent = plan.send().get(0);
    assertThat(sent.timestampNanos()).isEqualTo(WindowPlanner.nanos(hoursAgo(4)));
    assertThat(sent.metadata()).containsEntry("event_time", "2026-12-01T06:00:00Z");
    assertThat(newest.get(LOGIN)).isEqualTo(WindowPlanner.nanos(hoursAgo(4)));
  }

  @Test
  void dropPolicyTakesLateEntriesOutOfThePush() {
    WindowPlanner p = planner(TimeWindowConfig.defaults().withLatePolicy(LatePolicy.DROP));
    p.plan(List.of(at(hoursAgo(4), "live")), NOW);
    LogEntry late = at(hoursAgo(6), "late");
    WindowPlan plan = p.plan(List.of(late, at(hoursAgo(3), "on time")), NOW);
    assertThat(plan.send()).extracting(LogEntry::line).containsExactly("on time");
    assertThat(plan.dropped())
        .containsExactly(new Placement(late, late, Reason.TOO_FAR_BEHIND, Action.DROPPED));
  }

  @Test
  void aTooNewEntryWithinMaxHoldIsHeldUntilItIsWithinTheGrace() {
    LogEntry ahead = at(NOW.plus(Duration.ofMinutes(20)), "ahead");
    WindowPlan plan =
        planner(TimeWindowConfig.defaults().withMaxHold(Duration.ofMinutes(15)))
            .plan(List.of(ahead), NOW);
    assertThat(plan.send()).containsExactly(ahead);
    assertThat(plan.placements().get(ahead).action()).isEqualTo(Action.HELD);
    assertThat(plan.holdUntilNanos()).isEqualTo(WindowPlanner.nanos(NOW.plusSeconds(11 * 60)));
  }

  @Test
  void aTooNewEntryBeyondMaxHoldIsRetimestampedToThePushTime() {
    WindowPlan plan = planner().plan(List.of(at(NOW.plus(Duration.ofHours(3)), "junk")), NOW);
    LogEntry sent = plan.send().get(0);
    assertThat(sent.timestampNanos()).isEqualTo(WindowPlanner.nanos(NOW));
    assertThat(sent.metadata()).containsEntry("event_time", "2026-12-01T15:00:00Z");
    assertThat(plan.holdUntilNanos()).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void futurePolicyRetimestampClampsInsteadOfHolding() {
    WindowPlanner p =
        planner(TimeWindowConfig.defaults().withFuturePolicy(FuturePolicy.RETIMESTAMP));
    WindowPlan plan = p.plan(List.of(at(NOW.plus(Duration.ofMinutes(20)), "ahead")), NOW);
    assertThat(plan.send().get(0).timestampNanos()).isEqualTo(WindowPlanner.nanos(NOW));
  }

  @Test
  void anEntryOlderThanTheMaxAgeIsRetimestampedInsideIt() {
    LogEntry ancient = at(NOW.minus(Duration.ofDays(30)), "last month");
    WindowPlan plan = planner().plan(List.of(ancient), NOW);
    LogEntry sent = plan.send().get(0);
    assertThat(plan.placements().get(sent).reason()).isEqualTo(Reason.TOO_OLD);
    assertThat(sent.timestampNanos())
        .isEqualTo(WindowPlanner.nanos(NOW.minus(Duration.ofDays(7)).plus(Duration.ofHours(1))));
    assertThat(sent.metadata()).containsKey("event_time");
  }

  @Test
  void aTooOldEntryTakesItsStreamsNewestWhenKnown() {
    WindowPlanner p = planner();
    p.plan(List.of(at(hoursAgo(2), "live")), NOW);
    WindowPlan plan = p.plan(List.of(at(NOW.minus(Duration.ofDays(30)), "old")), NOW);
    assertThat(plan.send().get(0).timestampNanos()).isEqualTo(WindowPlanner.nanos(hoursAgo(2)));
  }

  @Test
  void anEventTimeAlreadyInTheMetadataIsKept() {
    WindowPlanner p = planner(TimeWindowConfig.defaults().withLatePolicy(LatePolicy.RETIMESTAMP));
    p.plan(List.of(at(hoursAgo(1), "live")), NOW);
    LogEntry replayed =
        LogEntry.of(
            WindowPlanner.nanos(hoursAgo(5)),
            LOGIN,
            "replayed",
            Map.of("event_time", "2026-11-01T00:00:00Z"),
            Optional.empty());
    WindowPlan plan = p.plan(List.of(replayed), NOW);
    assertThat(plan.send().get(0).metadata()).containsEntry("event_time", "2026-11-01T00:00:00Z");
  }

  @Test
  void aLessonRaisesTheVersionOnlyWhenItTeachesSomethingAndUnconfirmsTheStream() {
    newest.confirm(LOGIN);
    long before = newest.version();
    assertThat(newest.learned(LOGIN, 5)).isTrue();
    assertThat(newest.learned(LOGIN, 4)).isFalse();
    assertThat(newest.version()).isEqualTo(before + 1);
    assertThat(newest.isConfirmed(LOGIN)).isFalse();
  }

  @Test
  void entriesOfDifferentLabelSetsInOneLokiStreamShareItsWindow() {
    // A stream key that, like Loki's otlp_config, ignores the job label.
    StreamKey withoutJob =
        (labels, metadata) -> {
          java.util.Map<String, String> m = new java.util.TreeMap<>(labels);
          m.remove("job");
          return StringMap.of(m);
        };
    WindowPlanner planner =
        new WindowPlanner(TimeWindowConfig.defaults(), withoutJob, newest, PlacementLedger.NONE);
    planner.plan(List.of(at(hoursAgo(4), "h-4")), NOW);
    LogEntry otherJob =
        LogEntry.of(
            WindowPlanner.nanos(hoursAgo(6)),
            StringMap.of("event_type", "Login", "job", "other", "source", "eventlogfile"),
            "h-6",
            Map.of(),
            Optional.empty());

    WindowPlan plan = planner.plan(List.of(otherJob), NOW);

    assertThat(plan.placements().values())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.action()).isEqualTo(Action.ROUTED);
              assertThat(p.placed().labels())
                  .containsEntry("late", "1")
                  .containsEntry("job", "other");
            });
    assertThat(newest.get(withoutJob.of(p(plan).placed())))
        .isEqualTo(WindowPlanner.nanos(hoursAgo(6)));
  }

  private static Placement p(WindowPlan plan) {
    return plan.placements().values().iterator().next();
  }
}
