package io.sf2loki.daemon.ha;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Who leads which shard, as one poll of every live daemon's {@code /readyz} and {@code /metrics}
 * saw it.
 *
 * @param shards every org of the run
 * @param leaders per org, the live processes that lead it, each with the epoch of its term
 * @param live every live process polled
 * @param answering the live processes that answered with a line for every org, none of them {@code
 *     not ready}
 */
record ShardOwnership(
    List<String> shards,
    Map<String, Map<String, Long>> leaders,
    Set<String> live,
    Set<String> answering) {

  ShardOwnership {
    shards = List.copyOf(shards);
    leaders = Map.copyOf(leaders);
    live = Set.copyOf(live);
    answering = Set.copyOf(answering);
  }

  /** Every live process answers and every shard has exactly one leader. */
  boolean settled() {
    return answering.equals(live)
        && shards.stream().allMatch(s -> leaders.getOrDefault(s, Map.of()).size() == 1);
  }

  /** The one leader of {@code shard}; only once {@link #settled()}. */
  String leaderOf(String shard) {
    return leaders.get(shard).keySet().iterator().next();
  }

  /** The epoch of the term of {@code shard}'s one leader; only once {@link #settled()}. */
  long epochOf(String shard) {
    return leaders.get(shard).values().iterator().next();
  }

  /** Shards each live process leads (0 for a standby of every shard). */
  Map<String, Integer> shardsPerReplica() {
    Map<String, Integer> out = new TreeMap<>();
    live.forEach(p -> out.put(p, 0));
    leaders
        .values()
        .forEach(byProcess -> byProcess.keySet().forEach(p -> out.merge(p, 1, Integer::sum)));
    return out;
  }

  /** The shards {@code process} leads. */
  List<String> shardsOf(String process) {
    return shards.stream()
        .filter(s -> leaders.getOrDefault(s, Map.of()).containsKey(process))
        .toList();
  }

  /** The most shards a replica may lead: ⌈M / N⌉ + {@code slack}, N being the live processes. */
  int cap(int slack) {
    return (shards.size() + live.size() - 1) / live.size() + slack;
  }

  /** The most shards any live process leads. */
  int mostHeld() {
    return shardsPerReplica().values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** {@link #settled()}, and no live process leads more than {@link #cap(int) its cap}. */
  boolean spread(int slack) {
    return settled() && mostHeld() <= cap(slack);
  }

  /** The live process leading the most shards (the first by name on a tie). */
  String busiest() {
    String busiest = null;
    int most = -1;
    for (Map.Entry<String, Integer> e : shardsPerReplica().entrySet()) {
      if (e.getValue() > most) {
        busiest = e.getKey();
        most = e.getValue();
      }
    }
    return busiest;
  }

  @Override
  public String toString() {
    Map<String, Object> view = new TreeMap<>(leaders);
    return "leaders " + view + ", answering " + answering + " of " + live;
  }
}
