package io.sf2loki.daemon.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One store's soak: the faults, the figures and the four proofs. {@link #violations()} is empty
 * when every proof holds and nothing else went wrong.
 *
 * @param store the store
 * @param seed the soak's seed (replay it with {@code --seed}); each store's schedules derive from
 *     it
 * @param chaos how long faults were injected
 * @param faults faults injected, by kind
 * @param unknownOutcomes pushes Loki stored without the daemon seeing it
 * @param delivery what arrived
 * @param terms terms led (epochs), by the daemons' logs
 * @param incarnations daemon processes started
 * @param epochConflicts epochs led or written by two processes
 * @param regressions checkpoints or epochs that moved backwards
 * @param samples store documents sampled during the run
 * @param writesLogged document versions in the store's write log (0 for the file store)
 * @param failovers per leader fault kind, the longest time from the fault to the next term
 * @param longestLeaderless the longest time no replica led
 * @param pollsWithTwoLeaders polls of the watch in which both replicas answered as leader
 * @param problems what else went wrong: a replica that exited on its own or did not come back
 */
record SoakReport(
    SoakStore.Kind store,
    long seed,
    Duration chaos,
    Map<FaultKind, Integer> faults,
    int unknownOutcomes,
    DeliveryAudit.Delivery delivery,
    int terms,
    int incarnations,
    List<String> epochConflicts,
    List<String> regressions,
    int samples,
    int writesLogged,
    Map<FaultKind, Duration> failovers,
    Duration longestLeaderless,
    int pollsWithTwoLeaders,
    List<String> problems) {

  /**
   * Entries a replay may re-send per disruption: one batch (the lane pushes one at a time and
   * commits after each; pipeline.md, high-availability.md), plus the rest of the EventLogFile that
   * batch ended in, per event type (a file is re-read from its start; eventlogfile.md), plus one
   * event-object page (its checkpoint rides on the page's last record; eventlog-objects.md).
   */
  static final int RESEND_PER_DISRUPTION =
      SoakWorld.BATCH_MAX_ENTRIES + SoakWorld.EVENT_TYPES.size() * SoakWorld.ROWS_PER_FILE + 200;

  /** Disruptions that may cause a replay: every term (each ends) and every unknown outcome. */
  long disruptions() {
    return (long) terms + unknownOutcomes;
  }

  /** The most entries Loki may receive twice: {@link #RESEND_PER_DISRUPTION} per disruption. */
  long resendBound() {
    return disruptions() * RESEND_PER_DISRUPTION;
  }

  int faultsInjected() {
    return faults.values().stream().mapToInt(Integer::intValue).sum();
  }

  Duration longestFailover() {
    return failovers.values().stream().max(Duration::compareTo).orElse(Duration.ZERO);
  }

  /** Every proof that failed, and every problem; empty for a passing soak. */
  List<String> violations() {
    List<String> out = new ArrayList<>();
    if (delivery.lost() > 0) {
      out.add(
          delivery.lost()
              + " generated event(s) never reached Loki, e.g. "
              + delivery.lostSample());
    }
    if (delivery.storedTwice() > 0) {
      out.add(delivery.storedTwice() + " event(s) are stored twice in Loki");
    }
    if (delivery.resent() > resendBound()) {
      out.add(
          delivery.resent()
              + " re-sent entries exceed the bound of "
              + resendBound()
              + " ("
              + disruptions()
              + " disruptions x "
              + RESEND_PER_DISRUPTION
              + ")");
    }
    if (terms == 0) {
      out.add("no term started (the daemons' logs name none)");
    }
    if (samples == 0) {
      out.add("the store was never sampled");
    }
    out.addAll(epochConflicts);
    out.addAll(regressions);
    out.addAll(problems);
    return out;
  }

  /** The report as Markdown. */
  String render() {
    StringBuilder out = new StringBuilder();
    out.append(
        "### %s store: seed %d, %s of chaos%n%n".formatted(store.type(), seed, human(chaos)));
    out.append("| figure | value |\n|---|---|\n");
    row(out, "faults injected", faultsInjected() + " (" + byKind() + ")");
    row(
        out,
        "events generated",
        "%d (%d EventLogFile rows, %d %s records)"
            .formatted(
                delivery.events(),
                delivery.logFileRows(),
                delivery.objectRecords(),
                SoakWorld.OBJECT));
    row(out, "lost", Long.toString(delivery.lost()));
    row(out, "stored twice in Loki", Long.toString(delivery.storedTwice()));
    row(
        out,
        "re-sent (Loki dropped them as exact duplicates)",
        "%d (bound %d = %d disruptions x %d)"
            .formatted(delivery.resent(), resendBound(), disruptions(), RESEND_PER_DISRUPTION));
    row(out, "terms (epochs) / daemon processes", terms + " / " + incarnations);
    row(out, "epochs led or written by two processes", Integer.toString(epochConflicts.size()));
    row(
        out,
        "checkpoint regressions",
        regressions.size()
            + " ("
            + samples
            + " samples"
            + (writesLogged > 0 ? ", " + writesLogged + " logged writes" : "")
            + ")");
    row(out, "longest failover", human(longestFailover()) + " (" + failoversByKind() + ")");
    row(out, "longest time without a leader", human(longestLeaderless));
    row(
        out,
        "watch polls with two replicas ready as leader",
        Integer.toString(pollsWithTwoLeaders));
    List<String> violations = violations();
    row(out, "verdict", violations.isEmpty() ? "PASS" : "FAIL");
    for (String v : violations) {
      out.append("\n- ").append(v);
    }
    return out.append('\n').toString();
  }

  private String byKind() {
    return faults.entrySet().stream()
        .map(e -> e.getKey().name().toLowerCase(Locale.ROOT) + " " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private String failoversByKind() {
    return failovers.entrySet().stream()
        .map(e -> e.getKey().name().toLowerCase(Locale.ROOT) + " " + human(e.getValue()))
        .collect(Collectors.joining(", "));
  }

  private static void row(StringBuilder out, String figure, String value) {
    out.append("| ").append(figure).append(" | ").append(value).append(" |\n");
  }

  static String human(Duration d) {
    if (d.toMinutes() >= 1) {
      return String.format(Locale.ROOT, "%dm%02ds", d.toMinutes(), d.toSecondsPart());
    }
    return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
  }
}
