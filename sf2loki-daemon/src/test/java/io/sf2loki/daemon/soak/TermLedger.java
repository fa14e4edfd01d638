package io.sf2loki.daemon.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who led and wrote under which epoch. Two sources: each incarnation's own log, which names every
 * term whose epoch claim succeeded and whose pipeline started ({@code sf2loki ready — streaming to
 * Loki (epoch N)}), and, where the store keeps one, its write log, which names the writer of every
 * document version and the epoch the version carries. An epoch with two processes in either is a
 * broken fence: at most one replica may ever run, and commit under, a given epoch.
 */
final class TermLedger {

  static final Pattern TERM_STARTED = Pattern.compile("streaming to Loki \\(epoch (\\d+)\\)");

  private final Map<Long, Set<String>> leaders;
  private final Map<Long, Set<String>> writers;

  private TermLedger(Map<Long, Set<String>> leaders, Map<Long, Set<String>> writers) {
    this.leaders = leaders;
    this.writers = writers;
  }

  /**
   * Reads the incarnations' logs and the store's writes.
   *
   * @param logs each incarnation's log, by its name
   */
  static TermLedger of(Map<String, String> logs, List<SoakStore.Write> writes) {
    Map<Long, Set<String>> leaders = new TreeMap<>();
    logs.forEach(
        (name, log) -> {
          Matcher m = TERM_STARTED.matcher(log);
          while (m.find()) {
            leaders.computeIfAbsent(Long.parseLong(m.group(1)), e -> new TreeSet<>()).add(name);
          }
        });
    Map<Long, Set<String>> writers = new TreeMap<>();
    for (SoakStore.Write w : writes) {
      String epoch = w.document().get("__fence_epoch__");
      if (epoch != null) {
        writers.computeIfAbsent(Long.parseLong(epoch), e -> new TreeSet<>()).add(w.writer());
      }
    }
    return new TermLedger(leaders, writers);
  }

  /** Terms that started, by their leaders' logs. */
  int terms() {
    return leaders.size();
  }

  /** Every epoch led or written by more than one process, described. */
  List<String> conflicts() {
    List<String> out = new ArrayList<>();
    leaders.forEach(
        (epoch, who) -> {
          if (who.size() > 1) {
            out.add("epoch " + epoch + " was led by " + who);
          }
        });
    writers.forEach(
        (epoch, who) -> {
          Set<String> led = leaders.getOrDefault(epoch, who);
          if (who.size() > 1 || !led.containsAll(who)) {
            out.add(
                "the store recorded writes of epoch " + epoch + " by " + who + ", led by " + led);
          }
        });
    return out;
  }
}
